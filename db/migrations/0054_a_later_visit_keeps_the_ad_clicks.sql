-- A later visit without a click id keeps the ad clicks the contact's last touch had (ads review, 2026-12-01).
--
-- touch_contact() replaced the whole last touch with the new one, and every visit of the site brings one
-- (its landing path at least): an organic first form, then a form from a Google ad, then a direct visit to
-- book left the contact with no gclid, and the booking and every later step reached neither platform
-- (`sin_identificador`). touch_after() keeps each platform's latest click under the new touch; a touch
-- that brings a click of that platform replaces all of its earlier ones. The WhatsApp webhook's referral
-- touch goes through it too.
-- Per platform: a touch with any of Google's ids (gclid, gbraid, wbraid) drops the earlier ones of Google, one
-- with Meta's (fbc, ctwa_clid) the earlier ones of Meta; each platform is told of its latest click only.
CREATE FUNCTION touch_after(previous jsonb, touch jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN touch = '{}' THEN previous
            ELSE CASE WHEN touch ?| ARRAY['gclid', 'gbraid', 'wbraid'] THEN '{}'::jsonb
                      ELSE jsonb_strip_nulls(jsonb_build_object(
                             'gclid', previous -> 'gclid', 'gbraid', previous -> 'gbraid', 'wbraid', previous -> 'wbraid'))
                 END
                 || CASE WHEN touch ?| ARRAY['fbc', 'ctwa_clid'] THEN '{}'::jsonb
                         ELSE jsonb_strip_nulls(jsonb_build_object('fbc', previous -> 'fbc', 'ctwa_clid', previous -> 'ctwa_clid'))
                    END
                 || touch END;

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
    last_touch = touch_after(last_touch, p_touch),
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
