-- An appointment's e-mails go to the address given with its own booking (security review, 2026-11-30).
--
-- They went to the contact's e-mail, which any lead or booking with the contact's phone overwrites
-- (touch_contact()): someone who knew a buyer's number could book with their own address and then
-- receive the buyer's confirmations and reminders, with the link that moves or cancels the buyer's visit.
-- The booking's own address is kept on the appointment: the visitor's (the site, the voice agent), the
-- contact's as the team has it (the panel), none for a booking made in a WhatsApp conversation (answered
-- there). Appointments booked before keep the contact's address of today. And a lead (a form, the voice
-- agent, an adviser's capture) no longer writes over the e-mail a contact has: it fills an empty one only,
-- and keeps its own on its row; the team corrects the contact's from the panel (a line of its history).
--
-- The same review: a phone typed on the site or said to the voice agent is nobody's proof, and each
-- booking sends templates to it. place_appointment() refuses (SQLSTATE CB001) a booking for a person who
-- already has p_max_upcoming appointments ahead (the site's and the voice agent's bookings pass it), and
-- an appointment counts the moves its buyer made through their link (buyer_moves), which manage.ts caps.
ALTER TABLE appointments ADD COLUMN email email_address;
ALTER TABLE appointments ADD COLUMN buyer_moves integer NOT NULL DEFAULT 0 CHECK (buyer_moves >= 0);
UPDATE appointments a SET email = c.email FROM contacts c WHERE c.id = a.contact_id AND c.email IS NOT NULL;

DROP FUNCTION place_appointment(uuid, uuid[], text, text, timestamptz, timestamptz, tstzrange, text, text, integer,
  integer, text, text, text, text);

CREATE FUNCTION place_appointment(p_contact uuid, p_members uuid[], p_kind text, p_place text, p_starts timestamp with time zone, p_ends timestamp with time zone, p_blocked tstzrange, p_status text, p_source text, p_hold_minutes integer, p_price_mxn integer, p_privacy_version text, p_idempotency_key text, p_idempotency_fingerprint text, p_detail text, p_email email_address DEFAULT NULL,
  p_max_upcoming integer DEFAULT NULL)
RETURNS appointments
LANGUAGE plpgsql
AS $function$
DECLARE
  member uuid;
  placed appointments;
BEGIN
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

CREATE OR REPLACE FUNCTION touch_contact(p_phone text, p_name text, p_nameless text, p_email text, p_municipality text, p_buyer boolean, p_touch jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  contact uuid;
  previous text;
  known_name text;
  reopen boolean;
  named boolean;
  rr boolean;
  last_one uuid;
  adviser uuid;
  adviser_name text;
BEGIN
  INSERT INTO contacts (phone, name, email, municipality, is_buyer, is_partner, first_touch, last_touch)
  VALUES (p_phone, coalesce(p_name, p_nameless), p_email, p_municipality, p_buyer, NOT p_buyer, p_touch, p_touch)
  ON CONFLICT (phone) DO NOTHING
  RETURNING id INTO contact;

  IF contact IS NOT NULL THEN
    -- The round-robin (issue #12): the settings row is locked only while it is on.
    SELECT round_robin INTO rr FROM team_settings;
    IF rr THEN
      SELECT round_robin, last_assigned INTO rr, last_one FROM team_settings FOR UPDATE;
      IF rr THEN
        SELECT u.id, coalesce(u.name, u.email) INTO adviser, adviser_name
        FROM users u JOIN user_roles r ON r.user_id = u.id
        WHERE r.role = 'asesor' AND u.deactivated_at IS NULL
        ORDER BY (u.id > coalesce(last_one, '00000000-0000-0000-0000-000000000000'::uuid)) DESC, u.id
        LIMIT 1;
        IF adviser IS NOT NULL THEN
          UPDATE contacts SET assigned_to = adviser WHERE id = contact;
          UPDATE team_settings SET last_assigned = adviser;
          INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
          VALUES (contact, 'assigned', NULL, adviser_name, 'Asignación automática (por turnos)');
        END IF;
      END IF;
    END IF;
    RETURN contact;
  END IF;

  SELECT id, state, name INTO contact, previous, known_name FROM contacts WHERE phone = p_phone FOR UPDATE;
  IF contact IS NULL THEN
    RAISE EXCEPTION 'contact vanished while its lead was stored';
  END IF;
  reopen := previous = 'cerrado_perdido';
  named := p_name IS NOT NULL AND known_name = 'Visitante (llamada de voz)';
  UPDATE contacts SET
    name = CASE WHEN named THEN p_name ELSE name END,
    -- The e-mail the contact has stays (the team corrects it from the panel); a new one fills only an empty one.
    email = coalesce(email, p_email),
    municipality = coalesce(p_municipality, municipality),
    is_buyer = is_buyer OR p_buyer,
    is_partner = is_partner OR NOT p_buyer,
    last_touch = CASE WHEN p_touch = '{}' THEN last_touch ELSE p_touch END,
    last_activity_at = now(),
    state = CASE WHEN reopen THEN 'nuevo' ELSE state END,
    lost_reason = CASE WHEN reopen THEN NULL ELSE lost_reason END,
    version = version + CASE WHEN reopen THEN 1 ELSE 0 END
  WHERE id = contact;
  IF reopen THEN
    INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
    VALUES (contact, 'reopened', previous, 'nuevo', 'Nueva solicitud de un prospecto cerrado');
  ELSIF previous = 'cerrado_ganado' THEN
    INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
    VALUES (contact, 'request_after_sale', previous, previous, 'Nueva solicitud de un cliente con venta cerrada');
  END IF;
  IF p_name IS NOT NULL AND NOT named AND lower(p_name) <> lower(known_name)
     AND NOT EXISTS (SELECT 1 FROM contact_events
                     WHERE contact_id = contact AND kind = 'alias' AND lower(to_value) = lower(p_name)) THEN
    INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
    VALUES (contact, 'alias', known_name, p_name, 'Otro nombre en una nueva solicitud');
  END IF;
  RETURN contact;
END $function$;
