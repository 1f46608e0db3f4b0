-- Issue #40's budgets (decision 0064): the free slots read a member's
-- calendar (weekly hours, time off, held appointments) from a cache kept in
-- the function's memory, checked against the member's calendar version: a
-- number every change of that calendar raises, in the transaction of the
-- change. A reader sees a version only once its change has committed, and
-- fetches the calendar after reading the version, so a cached calendar is
-- never older than the version it is kept under.
--
-- No foreign key: a member's row is removed with their calendar (ON DELETE
-- CASCADE, SET NULL on appointments), and those removals bump it too.
CREATE TABLE member_calendar_versions (
  member_id uuid PRIMARY KEY,
  version bigint NOT NULL DEFAULT 1
);

CREATE FUNCTION bump_member_calendar() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.member_id IS NOT NULL THEN
    INSERT INTO member_calendar_versions AS v (member_id) VALUES (OLD.member_id)
    ON CONFLICT (member_id) DO UPDATE SET version = v.version + 1;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.member_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.member_id IS DISTINCT FROM OLD.member_id) THEN
    INSERT INTO member_calendar_versions AS v (member_id) VALUES (NEW.member_id)
    ON CONFLICT (member_id) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END $$;

COMMENT ON FUNCTION bump_member_calendar() IS
  'Raises the calendar version of the member(s) of a changed row (member_calendar_versions, decision 0064).';

CREATE TRIGGER appointments_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON appointments
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE TRIGGER member_weekly_hours_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_weekly_hours
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();
CREATE TRIGGER member_time_off_bump_calendar AFTER INSERT OR UPDATE OR DELETE ON member_time_off
  FOR EACH ROW EXECUTE FUNCTION bump_member_calendar();

-- 0036's adapters for the deploy that served while it was built: that deploy is gone.
DROP FUNCTION store_lead(text, jsonb, jsonb, text, text, text, text[], text[], text, text, integer, integer, jsonb);
DROP FUNCTION store_leads(jsonb);

-- A booking's last step in one round trip (decision 0064): the members free
-- for the slot, tried in order (the contact's own adviser, then whoever holds
-- the fewest appointments from now on, then by id); each member's expired
-- holds in the way are cancelled first (a line on their contact's history);
-- an insert refused by appointments_no_overlap (23P01) moves to the next
-- member. The appointment, or NULL when every member was taken meanwhile (the
-- caller then undoes its transaction). Its line on the contact's history and
-- the contact's last activity are written with it.
CREATE FUNCTION place_appointment(
  p_contact uuid,
  p_members uuid[],
  p_kind text,
  p_place text,
  p_starts timestamptz,
  p_ends timestamptz,
  p_blocked tstzrange,
  p_status text,
  p_source text,
  p_hold_minutes integer,
  p_price_mxn integer,
  p_privacy_version text,
  p_idempotency_key text,
  p_idempotency_fingerprint text,
  p_detail text
) RETURNS appointments
LANGUAGE plpgsql AS $$
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
    UPDATE contacts SET last_activity_at = now() WHERE id = p_contact;
    RETURN placed;
  END LOOP;
  RETURN NULL;
END $$;
