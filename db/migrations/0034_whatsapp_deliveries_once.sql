-- Issue #38, item 7 (decision 0050): a webhook delivery is stored once.
--
-- A signed delivery posted again (Meta's retry of what it saw unanswered, or
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
