-- A person holds one appointment at a time (appointments review, 2026-12-01).
--
-- place_appointment() checked only that the member was free: the same buyer submitting twice with two
-- keys, tapping a WhatsApp list's row twice (each message its own key) or the voice agent asking twice got
-- two confirmed appointments at the same hour with two advisers, and twice the templates. It now takes the
-- contact's advisory lock and refuses (SQLSTATE CB002) a booking over one the person already holds
-- (confirmed, or a hold not yet expired); book.ts answers AlreadyHeld, each channel in its words.
CREATE OR REPLACE FUNCTION place_appointment(p_contact uuid, p_members uuid[], p_kind text, p_place text, p_starts timestamp with time zone, p_ends timestamp with time zone, p_blocked tstzrange, p_status text, p_source text, p_hold_minutes integer, p_price_mxn integer, p_privacy_version text, p_idempotency_key text, p_idempotency_fingerprint text, p_detail text, p_email email_address DEFAULT NULL::text, p_max_upcoming integer DEFAULT NULL::integer)
 RETURNS appointments
 LANGUAGE plpgsql
AS $function$
DECLARE
  member uuid;
  placed appointments;
BEGIN
  -- The person's bookings one at a time (two taps, two submits, two tool calls at once), so that the check
  -- below sees what the one before committed.
  PERFORM pg_advisory_xact_lock(hashtextextended('appointment-contact:' || p_contact, 0));
  IF EXISTS (
    SELECT 1 FROM appointments a
    WHERE a.contact_id = p_contact AND a.starts_at < p_ends AND a.ends_at > p_starts
      AND (a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))) THEN
    RAISE EXCEPTION 'the person holds an appointment at this time already' USING ERRCODE = 'CB002';
  END IF;
  IF p_max_upcoming IS NOT NULL AND (
    SELECT count(*) FROM appointments a
    WHERE a.contact_id = p_contact AND a.ends_at > now()
      AND (a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))) >= p_max_upcoming THEN
    RAISE EXCEPTION 'the person has % appointments ahead already', p_max_upcoming USING ERRCODE = 'CB001';
  END IF;
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
        hold_until, price_mxn, privacy_version, idempotency_key, idempotency_fingerprint, email)
      VALUES (p_contact, p_kind, p_place, member, p_starts, p_ends, p_blocked, p_status, p_source,
        CASE WHEN p_hold_minutes IS NULL THEN NULL ELSE now() + make_interval(mins => p_hold_minutes) END,
        p_price_mxn, p_privacy_version, p_idempotency_key, p_idempotency_fingerprint, p_email)
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
