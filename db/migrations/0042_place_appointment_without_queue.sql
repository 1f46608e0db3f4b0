-- Decision 0069: a booking does not wait behind another booking of the same
-- member and start. place_appointment() of 0040 tried each member's insert and
-- waited, on appointments_no_overlap, for any booking of that member still
-- running; fifty visitors after one slot formed a queue, each waiting for the
-- commit of the one before, and on a busy machine the last ones waited past the
-- pool's connection timeout (503 instead of "ese horario ya no está
-- disponible"). Now a member whose same start another running booking holds
-- (a transaction-scoped advisory lock, tried without waiting) counts as taken
-- and the next member is tried. Overlapping bookings at different starts still
-- meet on the constraint, which keeps the last word.
CREATE OR REPLACE FUNCTION place_appointment(
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
    UPDATE contacts SET last_activity_at = now() WHERE id = p_contact;
    RETURN placed;
  END LOOP;
  RETURN NULL;
END $$;
