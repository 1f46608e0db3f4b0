-- WhatsApp conversations in the panel (issue #27, decision 0039): every
-- message of every contact, received through the Cloud API's webhook and
-- sent from the panel through the queue.
--
-- whatsapp_webhook_events   each POST the platform made, stored as received (the ack's one INSERT),
--                           processed from the queue (processed_at)
-- whatsapp_messages         one row per message, theirs ('in') and ours ('out'), by the platform's id
-- whatsapp_conversations    one row per contact with messages: what the inbox lists and counts
-- whatsapp_pending_statuses statuses that arrived before the message they are about was known
-- whatsapp_quick_replies    saved answers

-- 1. Deliveries of the webhook, as received (signature checked before). Nothing else
--    happens in the ack: the queue's job reads them (decision 0039).
CREATE TABLE whatsapp_webhook_events (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The body as received (text: the acknowledgement does not pay for parsing it into jsonb).
  body          text NOT NULL,
  received_at   timestamptz NOT NULL DEFAULT now(),
  processed_at  timestamptz,
  attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error    text
);
-- The upkeep's look for events whose job never came (and the bench's "all processed").
CREATE INDEX whatsapp_webhook_events_pending_idx ON whatsapp_webhook_events (id) WHERE processed_at IS NULL;

-- 2. Messages. Theirs are stored once by the platform's id (wa_message_id, unique): a
--    delivery replayed a day later, or two at once, adds nothing. Ours get that id when
--    the platform accepts them; until then they are found by idempotency_key.
CREATE TABLE whatsapp_messages (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  contact_id      uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  direction       text NOT NULL CHECK (direction IN ('in', 'out')),
  wa_message_id   text CHECK (char_length(wa_message_id) BETWEEN 1 AND 200),
  kind            text NOT NULL CHECK (kind IN ('text', 'image', 'audio', 'video', 'document', 'sticker',
                    'location', 'contacts', 'reaction', 'button', 'interactive', 'template', 'unsupported')),
  -- What the panel shows as the message's text (a text, a caption, a button's title, a
  -- template filled in, a place's name...), plain text, never HTML.
  body            text NOT NULL DEFAULT '' CHECK (char_length(body) <= 4096),
  -- The platform's media id (fetched with the token when first opened, GET /api/admin/whatsapp/media/{id}).
  media_id        text CHECK (char_length(media_id) <= 200),
  media_mime      text CHECK (char_length(media_mime) <= 200),
  media_filename  text CHECK (char_length(media_filename) <= 500),
  -- The platform's id of the message this one answers or reacts to (context.id / reaction.message_id).
  reply_to        text,
  -- Ours: sending -> sent -> delivered -> read, or failed; theirs: received. Forward only
  -- (whatsapp_status_rank): a late "delivered" never undoes "read".
  status          text NOT NULL CHECK (status IN ('received', 'sending', 'sent', 'delivered', 'read', 'failed')),
  status_at       timestamptz NOT NULL DEFAULT now(),
  -- A failure: the platform's error code (null for a network failure after the last retry)
  -- and the reason in Spanish (src/lib/whatsapp/errors.ts).
  error_code      integer,
  error_reason    text CHECK (char_length(error_reason) <= 500),
  template_name   text,
  -- Ours: the client's key (one row per press, however many times it is sent), or
  -- 'first-reply:' || contact id for the instant first reply (one per contact, ever).
  idempotency_key text CHECK (char_length(idempotency_key) BETWEEN 8 AND 128),
  sent_by         uuid REFERENCES users (id) ON DELETE SET NULL,
  sent_by_name    text,
  -- Sent by the site, not by a person (the instant first reply).
  automated       boolean NOT NULL DEFAULT false,
  -- Theirs: the message object of the webhook; ours: the request sent to the platform.
  raw             jsonb NOT NULL DEFAULT '{}',
  -- Sends tried (ours), and when the current one started (a worker that died is noticed by its age).
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  claimed_at      timestamptz,
  -- Theirs: the platform's timestamp; ours: when the member pressed send.
  created_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT whatsapp_messages_wa_id_key UNIQUE (wa_message_id),
  CONSTRAINT whatsapp_messages_idempotency_key UNIQUE (idempotency_key),
  CONSTRAINT whatsapp_messages_direction CHECK ((direction = 'in') = (status = 'received')),
  CONSTRAINT whatsapp_messages_theirs_have_id CHECK (direction = 'out' OR wa_message_id IS NOT NULL)
);
-- A contact's conversation, newest first, paged by (created_at, id): the latest 50 are one index range.
CREATE INDEX whatsapp_messages_contact_idx ON whatsapp_messages (contact_id, created_at DESC, id DESC);
-- Ours still to send (the queue's upkeep requeues one whose job was lost).
CREATE INDEX whatsapp_messages_sending_idx ON whatsapp_messages (created_at) WHERE status = 'sending';

-- Forward-only order of a message's statuses.
CREATE FUNCTION whatsapp_status_rank(status text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN CASE status WHEN 'sending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3
                     WHEN 'failed' THEN 4 WHEN 'received' THEN 0 END;

-- 3. One row per contact that has messages: the inbox reads and counts only this table
--    (joined to contacts for the name and the adviser).
CREATE TABLE whatsapp_conversations (
  contact_id       uuid PRIMARY KEY REFERENCES contacts (id) ON DELETE CASCADE,
  -- The person's WhatsApp id (digits, e.g. 5219991234567) as the platform last sent it:
  -- ours go to it (a Mexican mobile's id may keep the old "1" the contact's phone lost).
  wa_id            text CHECK (wa_id ~ '^[0-9]{6,20}$'),
  -- The newest message (by created_at), its direction and first line (<= 160 characters, plain text).
  last_message_id  uuid,
  last_message_at  timestamptz NOT NULL,
  last_direction   text NOT NULL CHECK (last_direction IN ('in', 'out')),
  last_preview     text NOT NULL DEFAULT '',
  -- Their newest message: the 24-hour customer-service window runs from here.
  last_inbound_at  timestamptz,
  -- Their messages stored after the conversation was last marked read (by any member).
  unread_count     integer NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
  last_read_at     timestamptz,
  last_read_by     uuid REFERENCES users (id) ON DELETE SET NULL,
  -- Their oldest message not answered since by a person of ours (a member's message, text,
  -- template or quick reply; the automated first reply is not an answer). Null: nobody waits.
  waiting_since    timestamptz,
  -- They wrote BAJA / ALTO / STOP: no template (and no first reply) goes to them.
  opted_out_at     timestamptz,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
-- The inbox: newest conversation first, keyset-paged by (last_message_at, contact_id).
CREATE INDEX whatsapp_conversations_recent_idx ON whatsapp_conversations (last_message_at DESC, contact_id DESC);
-- The unread filter and the badge's sum: only conversations with something unread.
CREATE INDEX whatsapp_conversations_unread_idx ON whatsapp_conversations (last_message_at DESC, contact_id DESC)
  INCLUDE (unread_count) WHERE unread_count > 0;
-- "Esperando respuesta" (waiting more than 15 minutes): oldest wait first.
CREATE INDEX whatsapp_conversations_waiting_idx ON whatsapp_conversations (waiting_since)
  WHERE waiting_since IS NOT NULL;
CREATE INDEX whatsapp_conversations_opted_out_idx ON whatsapp_conversations (last_message_at DESC)
  WHERE opted_out_at IS NOT NULL;

-- 4. A status about a message not known yet (ours, whose send's answer is not stored
--    yet; or one sent from elsewhere): kept, and applied when the message gets its id.
--    biz_opaque_callback_data carries our message's id, so a status can also find it.
CREATE TABLE whatsapp_pending_statuses (
  wa_message_id  text NOT NULL,
  status         text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  callback       text,
  error_code     integer,
  error_reason   text,
  at             timestamptz NOT NULL,
  received_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wa_message_id, status)
);
CREATE INDEX whatsapp_pending_statuses_callback_idx ON whatsapp_pending_statuses (callback) WHERE callback IS NOT NULL;
CREATE INDEX whatsapp_pending_statuses_received_idx ON whatsapp_pending_statuses (received_at);

-- 5. Saved answers: administrators edit them, every member inserts them.
CREATE TABLE whatsapp_quick_replies (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title       text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 60),
  body        text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 1000),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX whatsapp_quick_replies_title_key ON whatsapp_quick_replies (lower(title));

-- 6. The response time and "Sin atender" count a person's first reply (a member's
--    message accepted by the platform), not a wa.me link pressed.
ALTER TABLE contacts ADD COLUMN first_replied_at timestamptz;

-- 7. History lines of a contact: an opt-out (BAJA / ALTO / STOP) and a template sent.
DO $$
DECLARE
  allowed text[];
BEGIN
  -- The check reads CHECK (kind IN ('a', 'b')) or, once rebuilt by 0018, CHECK (kind = ANY ('{a,b}'::text[])).
  SELECT array_agg(DISTINCT value) INTO allowed
  FROM pg_constraint c, pg_get_constraintdef(c.oid) AS definition,
       LATERAL (SELECT m[1] AS value FROM regexp_matches(definition, '''([a-z_]+)''', 'g') AS m
                UNION ALL
                SELECT unnest(string_to_array(m[1], ',')) FROM regexp_matches(definition, '''\{([a-z_,]*)\}''', 'g') AS m) AS v
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  allowed := ARRAY(SELECT DISTINCT unnest(coalesce(allowed, '{}') || ARRAY['whatsapp_opt_out', 'whatsapp_template']));
  ALTER TABLE contact_events DROP CONSTRAINT IF EXISTS contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
