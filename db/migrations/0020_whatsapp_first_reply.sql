-- The instant first reply by WhatsApp (issue #27, decision 0039), and the
-- panel told of a contact's WhatsApp messages.
--
-- 1. Each lead records the version of the WhatsApp notice its form showed
--    near the phone ("te escribimos por WhatsApp", src/data/whatsapp-notice.ts),
--    as it records the privacy notice's. Only a lead with one gets a first reply.
ALTER TABLE cotizaciones_rapidas ADD COLUMN whatsapp_notice_version text CHECK (whatsapp_notice_version ~ '^\d{4}-\d{2}-\d{2}$');
ALTER TABLE quote_requests ADD COLUMN whatsapp_notice_version text CHECK (whatsapp_notice_version ~ '^\d{4}-\d{2}-\d{2}$');
ALTER TABLE partner_applications ADD COLUMN whatsapp_notice_version text CHECK (whatsapp_notice_version ~ '^\d{4}-\d{2}-\d{2}$');

-- 2. The first reply of a contact: one message of ours, `sending`, keyed
--    'first-reply:' || contact (one per contact, ever: ten leads of one phone
--    at once store one, the others wait on the key and store nothing), never
--    to a contact who opted out. `p_reply`: {template, body, parameters}
--    (the template filled in by the caller). Returns the message's id, or null
--    when none was stored now; its send job is the caller's to add after the
--    answer (with the lead's deliveries'), or the queue's upkeep adds it.
CREATE FUNCTION queue_first_reply(p_contact uuid, p_reply jsonb) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  message uuid;
BEGIN
  IF EXISTS (SELECT 1 FROM whatsapp_conversations WHERE contact_id = p_contact AND opted_out_at IS NOT NULL) THEN
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
  INSERT INTO contact_events (contact_id, kind, to_value, detail)
  VALUES (p_contact, 'whatsapp_template', 'Respuesta automática', p_reply ->> 'template');
  RETURN message;
END $$;

-- 3. store_lead() of 0015, with the first reply in the same statement (still
--    one round trip): `p_first_reply` null (WhatsApp off, no template
--    configured, a form without the notice) sends nothing; the answer adds
--    "firstReply": the message's id or null.
DROP FUNCTION store_lead(text, jsonb, jsonb, text, text, text, text[], text[], text, text, integer, integer);
-- One lead, in one statement. `p_table` is a lead table of the registry
-- (src/lib/leads/kinds.ts; any table with contact_id, a unique idempotency_key
-- and idempotency_fingerprint, so a new kind needs nothing here); `p_row` its
-- columns and values (JSON, read as the columns' types); `p_contact` phone,
-- name, email, municipality, buyer and touch (the attribution) of its contact. The answer, as JSON:
--   {"limited": true}: over the rate limit; nothing stored;
--   {"conflict": true}: the idempotency key was used for another request;
--   {"id", "created": false, "deliveries": [], "values"}: the key's lead, stored before;
--   {"id", "created": true, "deliveries": [ids], "values"}: stored now, with
--   its deliveries (their jobs are the caller's to add, after the answer).
-- `values` holds the columns named in `p_returning`, and id.
CREATE FUNCTION store_lead(
  p_table text, p_row jsonb, p_contact jsonb, p_key text, p_fingerprint text,
  p_kind text, p_channels text[], p_returning text[],
  p_rate_bucket text, p_rate_subject text, p_rate_window integer, p_rate_limit integer,
  p_first_reply jsonb DEFAULT NULL
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  hit_count integer;
  existing jsonb;
  contact uuid;
  column_list text;
  value_list text;
  new_lead uuid;
  stored jsonb;
  deliveries uuid[];
  first_reply uuid;
BEGIN
  -- The per-IP limit (src/server/leads/rate-limit.ts): a fixed window; 0 is no limit.
  IF p_rate_limit > 0 THEN
    INSERT INTO rate_limit_counters (bucket, subject, window_start)
    VALUES (p_rate_bucket, p_rate_subject, to_timestamp(floor(extract(epoch FROM now()) / p_rate_window) * p_rate_window))
    ON CONFLICT (bucket, subject, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
    RETURNING rate_limit_counters.hits INTO hit_count;
    IF random() < 0.01 THEN
      DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day';
    END IF;
    IF hit_count > p_rate_limit THEN
      RETURN jsonb_build_object('limited', true);
    END IF;
  END IF;

  IF p_key IS NOT NULL THEN
    -- Requests with one key queue here; each statement below sees what the one before committed.
    PERFORM pg_advisory_xact_lock(hashtextextended(p_table || ':' || p_key, 0));
    EXECUTE format('SELECT to_jsonb(l) FROM %I l WHERE idempotency_key = $1', p_table) INTO existing USING p_key;
    IF existing IS NOT NULL THEN
      -- Rows stored before fingerprints existed have none: they replay as they always did.
      IF existing ->> 'idempotency_fingerprint' IS NOT NULL
         AND existing ->> 'idempotency_fingerprint' IS DISTINCT FROM p_fingerprint THEN
        RETURN jsonb_build_object('conflict', true);
      END IF;
      RETURN jsonb_build_object('id', existing -> 'id', 'created', false, 'deliveries', '[]'::jsonb,
        'values', (SELECT jsonb_object_agg(key, value) FROM jsonb_each(existing)
                   WHERE key = 'id' OR key = ANY (p_returning)));
    END IF;
  END IF;

  contact := touch_contact(p_contact ->> 'phone', p_contact ->> 'name', p_contact ->> 'name',
    p_contact ->> 'email', p_contact ->> 'municipality', (p_contact ->> 'buyer')::boolean,
    coalesce(p_contact -> 'touch', '{}'));

  -- The row's values as literals, each read as its column's type (a JSON true as boolean, a number as numeric):
  -- cheaper than jsonb_populate_record, which looks up every column's type on each call.
  SELECT string_agg(quote_ident(key), ', '), string_agg(quote_nullable(value #>> '{}'), ', ')
    INTO column_list, value_list
    FROM jsonb_each(p_row);
  EXECUTE format(
    'INSERT INTO %I (%s, contact_id, idempotency_key, idempotency_fingerprint) VALUES (%s, $1, $2, $3)
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING id, jsonb_build_object(%s)',
    p_table, column_list, value_list,
    (SELECT string_agg(format('%L, %I', name, name), ', ') FROM unnest('{id}' || p_returning) AS name))
  INTO new_lead, stored USING contact, p_key, p_fingerprint;
  IF stored IS NULL THEN
    -- A row with this key that did not take the lock above (stored by an older deploy): undo all, the caller reads it.
    RAISE EXCEPTION 'idempotency key taken' USING ERRCODE = 'unique_violation', HINT = 'store_lead';
  END IF;

  IF coalesce(cardinality(p_channels), 0) > 0 THEN
    deliveries := record_lead_notifications(p_kind, new_lead, contact, p_channels);
  END IF;
  IF p_first_reply IS NOT NULL THEN
    first_reply := queue_first_reply(contact, p_first_reply);
  END IF;
  RETURN jsonb_build_object('id', new_lead, 'created', true, 'deliveries', to_jsonb(coalesce(deliveries, '{}')),
    'values', stored, 'firstReply', first_reply);
END $$;


-- 4. The panel told of their messages: an e-mail to the contact's adviser
--    (administrators when nobody follows it), one delivery per contact and
--    member while one is waiting (a burst of messages is one e-mail). The list
--    of purposes is PURPOSE_LABELS (src/lib/admin/notifications.ts), held to
--    this CHECK by tests/api/notification-channels.test.ts.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_purpose_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_purpose_check
  CHECK (purpose IN ('lead', 'test', 'summary', 'reminder', 'message'));
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_message
  CHECK (purpose <> 'message' OR (recipient_id IS NOT NULL AND contact_id IS NOT NULL));
CREATE UNIQUE INDEX notification_deliveries_message_key ON notification_deliveries (contact_id, recipient_id, channel)
  WHERE purpose = 'message' AND status IN ('pending', 'sending');
