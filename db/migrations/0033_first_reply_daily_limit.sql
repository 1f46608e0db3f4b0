-- Issue #38, item 1 (decision 0049): the paid automatic first reply by
-- WhatsApp cannot be abused.
--
-- 1. A daily limit for the whole site, kept where messages are sent (the
--    queue's send job, src/server/whatsapp/send.ts), never in the lead's
--    statement: each first reply, when its job first runs, takes one of the
--    day's allowance (WHATSAPP_FIRST_REPLY_DAILY_LIMIT, a day of Mérida) in
--    one statement that counts and checks together. Over the limit it is
--    `held`: never sent, kept in the conversation for an adviser to write by
--    hand, and the day's first one held e-mails the administrators.
--
-- 2. queue_first_reply() (migration 0020) writes no activity_log row: an
--    automatic send is no person's act, and a flood of leads made one
--    undeletable row each. What an adviser needs stays: the contact's history
--    entry and the message in the conversation.

-- The days' allowance of first replies: taken (`sent`) and when the administrators were told it ran out.
CREATE TABLE whatsapp_first_reply_days (
  day         date PRIMARY KEY,
  sent        integer NOT NULL DEFAULT 0 CHECK (sent >= 0),
  alerted_at  timestamptz
);

-- The day of the allowance a first reply took (null: none yet; its next try takes one, once).
ALTER TABLE whatsapp_messages ADD COLUMN allowance_day date;

-- A first reply over the day's limit: `held`, never sent (an adviser writes instead).
ALTER TABLE whatsapp_messages DROP CONSTRAINT whatsapp_messages_status_check;
ALTER TABLE whatsapp_messages ADD CONSTRAINT whatsapp_messages_status_check
  CHECK (status IN ('received', 'sending', 'sent', 'delivered', 'read', 'failed', 'held'));
CREATE OR REPLACE FUNCTION whatsapp_status_rank(status text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN CASE status WHEN 'sending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3
                     WHEN 'failed' THEN 4 WHEN 'held' THEN 4 WHEN 'received' THEN 0 END;

-- The contact's history says so: 'whatsapp_held' (kept with every kind allowed before, as 0019 did).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT value) INTO allowed
  FROM pg_constraint c, pg_get_constraintdef(c.oid) AS definition,
       LATERAL (SELECT m[1] AS value FROM regexp_matches(definition, '''([a-z_]+)''', 'g') AS m
                UNION ALL
                SELECT unnest(string_to_array(m[1], ',')) FROM regexp_matches(definition, '''\{([a-z_,]*)\}''', 'g') AS m) AS v
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  allowed := ARRAY(SELECT DISTINCT unnest(coalesce(allowed, '{}') || ARRAY['whatsapp_held']));
  ALTER TABLE contact_events DROP CONSTRAINT IF EXISTS contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;

-- queue_first_reply() of migration 0020, without its activity_log row.
CREATE OR REPLACE FUNCTION queue_first_reply(p_contact uuid, p_reply jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  message uuid;
BEGIN
  IF EXISTS (SELECT 1 FROM whatsapp_conversations WHERE contact_id = p_contact AND opted_out_at IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  -- Already stored (the usual case for a person's second lead): a plain read, without waiting
  -- on that row's lock. The INSERT below would wait for its send job's transaction, which
  -- deadlocked with this lead's lock on the contact (seen under 10 leads of one phone).
  IF EXISTS (SELECT 1 FROM whatsapp_messages WHERE idempotency_key = 'first-reply:' || p_contact) THEN
    RETURN NULL;
  END IF;
  INSERT INTO whatsapp_messages (contact_id, direction, kind, body, status, template_name, idempotency_key, automated, raw)
  VALUES (p_contact, 'out', 'template', p_reply ->> 'body', 'sending', p_reply ->> 'template',
          'first-reply:' || p_contact, true, jsonb_build_object('parameters', coalesce(p_reply -> 'parameters', '[]')))
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO message;
  IF message IS NULL THEN
    RETURN NULL;
  END IF;
  -- The conversation's last message (ours, automated: nobody's wait ends with it).
  INSERT INTO whatsapp_conversations AS c (contact_id, last_message_id, last_message_at, last_direction, last_preview)
  VALUES (p_contact, message, now(), 'out', left(split_part(p_reply ->> 'body', E'\n', 1), 160))
  ON CONFLICT (contact_id) DO UPDATE SET
    last_message_id = CASE WHEN now() >= c.last_message_at THEN EXCLUDED.last_message_id ELSE c.last_message_id END,
    last_direction = CASE WHEN now() >= c.last_message_at THEN 'out' ELSE c.last_direction END,
    last_preview = CASE WHEN now() >= c.last_message_at THEN EXCLUDED.last_preview ELSE c.last_preview END,
    last_message_at = greatest(c.last_message_at, now()),
    updated_at = now();
  -- The contact's history: what an adviser needs to see (the send job makes it 'whatsapp_held' if held).
  INSERT INTO contact_events (contact_id, kind, to_value, detail)
  VALUES (p_contact, 'whatsapp_template', 'Respuesta automática', p_reply ->> 'template');
  RETURN message;
END $$;
