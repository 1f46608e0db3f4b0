-- Issue #38, items 11 and 12 (decision 0052): a new lead from a phone the
-- team already knows no longer rewrites who the person is or undoes a sale.
--
-- Only touch_contact() (the contact upsert of every lead: store_leads_together()
-- of migration 0032, captureLead() and the voice calls' touchContact()) is
-- redefined, same signature and answer; the lead statement keeps its one
-- round trip and its rows, and a new person's path is unchanged. For a known
-- person:
-- 1. The name stays the one the team knows. Another name (not the same one
--    in other capitals) is a line of the history, kind 'alias' (from: the
--    name kept, to: the other), once per name. A contact known only by a call
--    in which no name was given ('Visitante (llamada de voz)', NAMELESS in
--    src/server/contacts/touch.ts) takes the name, as before.
-- 2. A won contact ('cerrado_ganado') stays won, its sale on the board; the
--    request is a line of the history, kind 'request_after_sale'. Its adviser
--    hears of it with the request's e-mail (src/server/notifications/message.ts).
--    A lost contact reopens as 'nuevo', as before: asking again is a new chance.

DO $$
DECLARE
  allowed text[];
BEGIN
  -- The check reads CHECK (kind = ANY ('{a,b}'::text[])) since 0018 (or CHECK (kind IN ('a', 'b')) before).
  SELECT array_agg(DISTINCT value) INTO allowed
  FROM pg_constraint c, pg_get_constraintdef(c.oid) AS definition,
       LATERAL (SELECT m[1] AS value FROM regexp_matches(definition, '''([a-z_]+)''', 'g') AS m
                UNION ALL
                SELECT unnest(string_to_array(m[1], ',')) FROM regexp_matches(definition, '''\{([a-z_,]*)\}''', 'g') AS m) AS v
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  allowed := ARRAY(SELECT DISTINCT unnest(coalesce(allowed, '{}') || ARRAY['alias', 'request_after_sale']));
  ALTER TABLE contact_events DROP CONSTRAINT IF EXISTS contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;

CREATE OR REPLACE FUNCTION touch_contact(
  p_phone text,
  p_name text,
  p_nameless text,
  p_email text,
  p_municipality text,
  p_buyer boolean,
  p_touch jsonb
) RETURNS uuid LANGUAGE plpgsql AS $$
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
    email = coalesce(p_email, email),
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
END $$;
