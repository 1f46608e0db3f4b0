-- Issue #38, items 7 and 6 (decision 0050): a webhook delivery is stored
-- once, and the texts stored before lose their bidirectional controls.
--
-- Item 7. A signed delivery posted again (Meta's retry of what it saw unanswered, or
-- a captured delivery replayed: its signature stays valid for its bytes) was
-- a new row of whatsapp_webhook_events each time (30 posts, 30 rows, one
-- message): the table grew, and the queue parsed and processed each copy.
-- Now its bytes' SHA-256 is a column PostgreSQL computes, unique: the
-- acknowledgement's INSERT ... ON CONFLICT DO NOTHING adds nothing for a body
-- stored before (or twice in one group commit), and the delivery is still
-- answered 200 so the platform stops retrying. A body is stored as the text
-- received (UTF-8, checked by the endpoint), so its bytes are the signed ones.
--
-- The same message in another delivery's bytes (another batch) is another
-- row, as before: its message is stored once by its platform id (unique since
-- 0019) and its statuses move forward only. A processed row is purged after
-- 30 days (maintainWhatsapp); a copy arriving later is stored and processed
-- again, and changes nothing.

-- A body's UTF-8 bytes' SHA-256. convert_to() is only STABLE (an encoding's conversion could in
-- principle be redefined); to UTF-8 from a database's fixed encoding it is the same for ever.
CREATE FUNCTION utf8_sha256(value text) RETURNS bytea
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN sha256(convert_to(value, 'UTF8'));
ALTER TABLE whatsapp_webhook_events
  ADD COLUMN body_sha256 bytea GENERATED ALWAYS AS (utf8_sha256(body)) STORED;
-- Copies stored before: the first of each is kept (a job of a removed copy finds no row and does nothing).
DELETE FROM whatsapp_webhook_events WHERE id IN (
  SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY body_sha256 ORDER BY id) AS nth
                    FROM whatsapp_webhook_events) AS copies
   WHERE nth > 1);
ALTER TABLE whatsapp_webhook_events
  ADD CONSTRAINT whatsapp_webhook_events_body_once UNIQUE (body_sha256);

-- Issue #38, item 6 (decision 0050): the bidirectional controls of texts from outside.
--
-- From now on they are removed where the text enters (src/lib/bidi.ts: the
-- WhatsApp webhook's every string, the voice reports' every string, the
-- forms' fields). What was stored before keeps them: a file `factura<U+202E>fdp.exe`
-- still shows as "facturaexe.pdf". The same characters are removed here, once,
-- from what the team reads: the WhatsApp messages and previews, the calls,
-- the names of contacts and leads and the places of leads (the forms removed
-- the overrides and isolates already, not the marks U+200E, U+200F, U+061C).
-- A name that would be left blank keeps its value (the forms and WhatsApp's
-- profile names never gave one without a letter).
CREATE FUNCTION without_bidi_controls(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(value, '[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]', '', 'g');

CREATE FUNCTION has_bidi_controls(value text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN value ~ '[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]';

UPDATE whatsapp_messages
   SET body = without_bidi_controls(body),
       media_filename = nullif(without_bidi_controls(media_filename), ''),
       raw = without_bidi_controls(raw::text)::jsonb
 WHERE direction = 'in'
   AND (has_bidi_controls(body) OR has_bidi_controls(media_filename) OR has_bidi_controls(raw::text));

UPDATE whatsapp_conversations SET last_preview = without_bidi_controls(last_preview)
 WHERE has_bidi_controls(last_preview);

UPDATE voice_calls
   SET summary = nullif(without_bidi_controls(summary), ''),
       transcript = nullif(without_bidi_controls(transcript), ''),
       ended_reason = nullif(without_bidi_controls(ended_reason), ''),
       interest = nullif(without_bidi_controls(interest), ''),
       name = nullif(without_bidi_controls(name), ''),
       messages = without_bidi_controls(messages::text)::jsonb,
       structured = without_bidi_controls(structured::text)::jsonb
 WHERE has_bidi_controls(summary) OR has_bidi_controls(transcript) OR has_bidi_controls(ended_reason)
    OR has_bidi_controls(interest) OR has_bidi_controls(name) OR has_bidi_controls(messages::text)
    OR has_bidi_controls(structured::text);

UPDATE contacts SET name = coalesce(nullif(btrim(without_bidi_controls(name)), ''), name)
 WHERE has_bidi_controls(name);
UPDATE cotizaciones_rapidas SET name = coalesce(nullif(btrim(without_bidi_controls(name)), ''), name)
 WHERE has_bidi_controls(name);
UPDATE quote_requests
   SET name = coalesce(nullif(btrim(without_bidi_controls(name)), ''), name),
       municipality = coalesce(nullif(btrim(without_bidi_controls(municipality)), ''), municipality)
 WHERE has_bidi_controls(name) OR has_bidi_controls(municipality);
UPDATE partner_applications
   SET name = coalesce(nullif(btrim(without_bidi_controls(name)), ''), name),
       municipality = coalesce(nullif(btrim(without_bidi_controls(municipality)), ''), municipality)
 WHERE has_bidi_controls(name) OR has_bidi_controls(municipality);
