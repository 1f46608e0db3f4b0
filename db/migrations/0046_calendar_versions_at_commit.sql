-- Issue #40 (decision 0081): a member's calendar version is raised when the
-- change commits, and only by a change the calendar shows.
--
-- 0040's row triggers raised member_calendar_versions at the change's own
-- statement, so the version row stayed locked for the rest of the
-- transaction: a booking locked its member's row at its insert and held it
-- through the pipeline's move, the queue's jobs and the round trips between
-- them, and every other booking given to the same member (the one with the
-- fewest appointments, the same for bookings made at once) waited for that
-- commit, whatever its slot. As constraint triggers deferred to the commit,
-- the same function raises the same versions in the same transaction, so a
-- reader still sees a change and its version together, but the row is
-- locked only while the transaction commits. Double booking is still refused
-- at the insert, by the exclusion constraint appointments_no_overlap.
--
-- An update of an appointment raised the version whatever it changed (the
-- calendar file's sequence, updated_at), and so threw away the member's
-- calendar kept in memory (decision 0064). It now raises it only when what
-- a calendar reads of it changes: its member, its held time, its status or
-- its hold.
--
-- place_appointment() (0042) no longer rewrites its contact's row for the
-- last activity its caller's touch_contact() wrote a moment before.
DROP TRIGGER appointments_bump_calendar ON appointments;
DROP TRIGGER member_weekly_hours_bump_calendar ON member_weekly_hours;
DROP TRIGGER member_time_off_bump_calendar ON member_time_off;

CREATE CONSTRAINT TRIGGER appointments_bump_calendar AFTER INSERT OR DELETE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER appointments_bump_calendar_on_change AFTER UPDATE ON appointments
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.member_id IS DISTINCT FROM NEW.member_id OR OLD.blocked IS DISTINCT FROM NEW.blocked
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.hold_until IS DISTINCT FROM NEW.hold_until)
  EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER member_weekly_hours_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_weekly_hours
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE CONSTRAINT TRIGGER member_time_off_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_time_off
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();

CREATE OR REPLACE FUNCTION place_appointment(p_contact uuid, p_members uuid[], p_kind text, p_place text, p_starts timestamp with time zone, p_ends timestamp with time zone, p_blocked tstzrange, p_status text, p_source text, p_hold_minutes integer, p_price_mxn integer, p_privacy_version text, p_idempotency_key text, p_idempotency_fingerprint text, p_detail text)
 RETURNS appointments
 LANGUAGE plpgsql
AS $function$
DECLARE
  member uuid;
  placed appointments;
BEGIN
  FOR member IN
    SELECT m.id
    FROM unnest(p_members) AS m (id)
    LEFT JOIN contacts c ON c.id = p_contact AND c.assigned_to = m.id
    ORDER BY (c.id IS NOT NULL) DESC,
      (SELECT count(*) FROM appointments a
       WHERE a.member_id = m.id AND a.ends_at > now()
         AND (a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))),
      m.id
  LOOP
    -- Another booking of this member at this start, still running: the slot is taken for us, at once. Fifty
    -- visitors after one slot queued on the exclusion constraint, each for the commit of the one before, until
    -- the pool's connections ran out (503s on a busy machine).
    IF NOT pg_try_advisory_xact_lock(hashtextextended('appointment-slot:' || member || ':' || extract(epoch FROM p_starts), 0)) THEN
      CONTINUE;
    END IF;
    WITH released AS (
      UPDATE appointments SET status = 'cancelada', updated_at = now()
      WHERE member_id = member AND status = 'por_pagar' AND hold_until <= now() AND blocked && p_blocked
      RETURNING contact_id)
    INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
    SELECT contact_id, 'appointment', 'por_pagar', 'cancelada', 'Apartado vencido sin pago: el horario se liberó'
    FROM released;
    BEGIN
      INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source,
        hold_until, price_mxn, privacy_version, idempotency_key, idempotency_fingerprint)
      VALUES (p_contact, p_kind, p_place, member, p_starts, p_ends, p_blocked, p_status, p_source,
        CASE WHEN p_hold_minutes IS NULL THEN NULL ELSE now() + make_interval(mins => p_hold_minutes) END,
        p_price_mxn, p_privacy_version, p_idempotency_key, p_idempotency_fingerprint)
      RETURNING * INTO placed;
    EXCEPTION WHEN exclusion_violation THEN
      CONTINUE;
    END;
    INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES (p_contact, 'appointment', p_status, p_detail);
    -- A contact just touched (touch_contact(), in the same transaction) has this activity already: written again,
    -- the row would be rewritten with every one of its indexes for the same value.
    UPDATE contacts SET last_activity_at = now() WHERE id = p_contact AND last_activity_at IS DISTINCT FROM now();
    RETURN placed;
  END LOOP;
  RETURN NULL;
END $function$;
