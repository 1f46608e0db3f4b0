-- Issue #39: a lead path a newcomer can read. Nothing a lead does changes;
-- the SQL says it by name.
--
-- * A lead is a `lead_request` (a composite type, one named field for each of
--   the 13 values that store_lead() took in order and store_leads_together()
--   read as `lead ->> 0 … lead -> 12`). The server sends each lead as a JSON
--   object with those names (src/server/leads/repository.ts, LeadRequest) to
--   store_lead_request() (one lead, its error raised) or store_lead_requests()
--   (leads that waited at the same moment, each answered in its place).
-- * store_leads_together() takes lead_request[] and is plain PL/pgSQL: the
--   version-7 ids come from uuid_in_time_order(), which is uuidv7() itself on
--   PostgreSQL 18 (an SQL function, inlined where it is called), so no
--   statement is written as text any more.
-- * One writer of a lead's notification rows, record_lead_deliveries(): the
--   forms' leads (store_leads_together) and the calls' (queue_lead_notifications)
--   both go through it. record_lead_notifications() is gone.
-- * leads_attach_contact() and its three triggers are dropped: they gave a
--   contact to rows inserted by a deploy older than contacts (migration 0015),
--   and no such deploy runs; every lead row is inserted with its contact_id.
--
-- store_lead() (13 arguments) and store_leads() (positional arrays) stay as
-- thin adapters for one reason: the deploy that is still serving while this
-- migration's build runs calls them. Drop both in the first migration after
-- this one has been deployed (db/migrations/README.md says so too).

DO $migration$
BEGIN
  IF current_setting('server_version_num')::integer >= 180000 THEN
    CREATE OR REPLACE FUNCTION uuid_in_time_order() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE
    RETURN uuidv7();
  END IF;
END $migration$;

CREATE TYPE lead_request AS (
  lead_table text,               -- the form's table: cotizaciones_rapidas, quote_requests, partner_applications
  lead_row jsonb,                -- the row's columns as the form's function built them (src/server/leads/rows.ts)
  contact jsonb,                 -- {phone, name, email, municipality, buyer, touch}: touch_contact()'s arguments
  idempotency_key text,          -- the Idempotency-Key header, or null
  idempotency_fingerprint text,  -- SHA-256 of the request the key was first used for
  lead_kind text,                -- the lead's kind in deliveries: quick-quotes, quote-requests, partner-applications
  channels text[],               -- the notification channels turned on: one delivery each
  returning_columns text[],      -- columns of the stored row the endpoint answers with (besides id)
  rate_bucket text,              -- the per-IP limit: its bucket, the client's address, window (s) and limit;
  rate_subject text,             --   a limit of 0 or null is no limit
  rate_window integer,
  rate_limit integer,
  first_reply jsonb              -- the WhatsApp first reply {template, body, parameters}, or null
);

-- The one writer of a lead's notification rows: one row per channel, ids made by the caller.
CREATE FUNCTION record_lead_deliveries(
  p_ids uuid[], p_channels text[], p_kinds text[], p_leads uuid[], p_contacts uuid[]
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO notification_deliveries (id, purpose, channel, lead_kind, lead_id, contact_id)
  SELECT id, 'lead', channel, kind, lead_id, contact_id
  FROM unnest(p_ids, p_channels, p_kinds, p_leads, p_contacts) AS d (id, channel, kind, lead_id, contact_id)
$$;

-- A call's lead (src/server/voice): its deliveries and their jobs, in the caller's transaction.
CREATE OR REPLACE FUNCTION queue_lead_notifications(
  p_kind text, p_lead uuid, p_contact uuid, p_channels text[], p_task_prefix text
) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  n integer := coalesce(cardinality(p_channels), 0);
BEGIN
  IF n = 0 THEN
    RETURN '{}';
  END IF;
  ids := ARRAY(SELECT uuid_in_time_order() FROM generate_series(1, n));
  PERFORM record_lead_deliveries(ids, p_channels, array_fill(p_kind, ARRAY[n]), array_fill(p_lead, ARRAY[n]),
    array_fill(p_contact, ARRAY[n]));
  PERFORM count(*) FROM graphile_worker.add_jobs(array(
    SELECT ROW(p_task_prefix || d.channel, json_build_object('deliveryId', d.id), NULL, now(), 3,
               'delivery:' || d.id, NULL, NULL)::graphile_worker.job_spec
    FROM unnest(ids, p_channels) AS d (id, channel)));
  RETURN ids;
END $$;

DROP FUNCTION record_lead_notifications(text, uuid, uuid, text[]);

-- Leads stored in one statement (decisions 0044, 0048). Each lead, in a
-- subtransaction of its own, passes its gate (the per-IP limit and its
-- idempotency key: lead_gate()), gets its contact (touch_contact()), its
-- row's id and its first reply; then one INSERT for each table and set of
-- columns adds every row, and one INSERT every delivery. A lead refused
-- before its row is answered in its place; an INSERT that fails raises, and
-- store_lead_requests() then stores each lead again on its own.
-- The answer, in the order sent: {"stored": {id, created, deliveries, values, firstReply}}
-- or {"stored": {limited|conflict: true}}, or {"error": {code, message, hint}}.
CREATE FUNCTION store_leads_together(p_leads lead_request[]) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lead lead_request;
  answer jsonb;
  results jsonb[] := '{}';
  lead_ids uuid[] := '{}';
  new_lead uuid;
  contact uuid;
  -- Each new lead's row, and the INSERT it goes in: its table and returned columns, and its values.
  row_groups text[] := '{}';
  row_values jsonb[] := '{}';
  insert_group record;
  inserted integer;
  stored jsonb;
  stored_values jsonb := '{}';
  -- Per lead: how many of the statement's deliveries there are up to its own (NULL: none stored).
  delivery_ends integer[] := '{}';
  delivery_start integer := 0;
  delivery_ids uuid[];
  delivery_leads uuid[] := '{}';
  delivery_contacts uuid[] := '{}';
  delivery_kinds text[] := '{}';
  delivery_channels text[] := '{}';
  channel_count integer;
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  FOREACH lead IN ARRAY p_leads LOOP
    BEGIN
      new_lead := NULL;
      answer := NULL;
      IF lead.rate_limit > 0 OR lead.idempotency_key IS NOT NULL THEN
        answer := lead_gate(lead.lead_table, lead.idempotency_key, lead.idempotency_fingerprint,
          coalesce(lead.returning_columns, '{}'), lead.rate_bucket, lead.rate_subject, lead.rate_window,
          coalesce(lead.rate_limit, 0));
      END IF;
      IF answer IS NULL THEN
        contact := touch_contact(lead.contact ->> 'phone', lead.contact ->> 'name', lead.contact ->> 'name',
          lead.contact ->> 'email', lead.contact ->> 'municipality', (lead.contact ->> 'buyer')::boolean,
          coalesce(lead.contact -> 'touch', '{}'));
        new_lead := uuid_in_time_order();
        answer := jsonb_build_object('id', new_lead, 'created', true, 'deliveries', '[]'::jsonb,
          'firstReply', CASE WHEN jsonb_typeof(lead.first_reply) = 'object'
                             THEN queue_first_reply(contact, lead.first_reply) END);
      END IF;
      -- Last: nothing after these can fail and leave a lead undone by its error in the lists.
      results := results || jsonb_build_object('stored', answer);
      lead_ids := lead_ids || new_lead;
      IF new_lead IS NOT NULL THEN
        row_groups := row_groups
          || jsonb_build_array(lead.lead_table, to_jsonb(coalesce(lead.returning_columns, '{}')))::text;
        row_values := row_values || (lead.lead_row || jsonb_build_object('id', new_lead, 'contact_id', contact,
          'idempotency_key', lead.idempotency_key, 'idempotency_fingerprint', lead.idempotency_fingerprint));
        channel_count := coalesce(cardinality(lead.channels), 0);
        IF channel_count > 0 THEN
          delivery_channels := delivery_channels || lead.channels;
          delivery_leads := delivery_leads || array_fill(new_lead, ARRAY[channel_count]);
          delivery_contacts := delivery_contacts || array_fill(contact, ARRAY[channel_count]);
          delivery_kinds := delivery_kinds || array_fill(lead.lead_kind, ARRAY[channel_count]);
        END IF;
        delivery_ends := delivery_ends || cardinality(delivery_channels);
      ELSE
        delivery_ends := delivery_ends || NULL::integer;
      END IF;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS failed_code = RETURNED_SQLSTATE, failed_message = MESSAGE_TEXT,
        failed_hint = PG_EXCEPTION_HINT;
      results := results || jsonb_build_object('error',
        jsonb_build_object('code', failed_code, 'message', failed_message, 'hint', nullif(failed_hint, '')));
      lead_ids := lead_ids || NULL::uuid;
      delivery_ends := delivery_ends || NULL::integer;
    END;
  END LOOP;

  -- Rows of one table with the same columns (a form's fields, whichever are sent) go in one INSERT;
  -- the table is one of the lead tables, so its INSERT is written here for each set of columns.
  FOR insert_group IN
    SELECT g::jsonb ->> 0 AS lead_table, g::jsonb -> 1 AS returning_columns, k AS insert_columns,
           jsonb_agg(v ORDER BY n) AS insert_rows
    FROM unnest(row_groups, row_values) WITH ORDINALITY AS r (g, v, n),
         LATERAL (SELECT ARRAY(SELECT jsonb_object_keys(v)) AS k) AS keys
    GROUP BY g, k
  LOOP
    EXECUTE format(
      'WITH stored AS (
         INSERT INTO %1$I (%2$s) SELECT %2$s FROM jsonb_populate_recordset(NULL::%1$I, $1)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id, jsonb_build_object(%3$s) AS stored_values)
       SELECT count(*), jsonb_object_agg(id, stored_values) FROM stored',
      insert_group.lead_table,
      (SELECT string_agg(quote_ident(name), ', ') FROM unnest(insert_group.insert_columns) AS name),
      (SELECT string_agg(format('%L, %I', name, name), ', ')
       FROM unnest('{id}' || ARRAY(SELECT jsonb_array_elements_text(insert_group.returning_columns))) AS name))
    INTO inserted, stored USING insert_group.insert_rows;
    IF inserted < jsonb_array_length(insert_group.insert_rows) THEN
      -- A key used twice in this statement, or by a row stored without the key's lock.
      RAISE EXCEPTION 'idempotency key taken' USING ERRCODE = 'unique_violation', HINT = 'store_lead';
    END IF;
    stored_values := stored_values || stored;
  END LOOP;

  -- The deliveries' ids, made together, each lead's in its channels' order.
  delivery_ids := ARRAY(SELECT uuid_in_time_order() FROM generate_series(1, cardinality(delivery_channels)));
  FOR position IN 1 .. cardinality(lead_ids) LOOP
    IF lead_ids[position] IS NOT NULL THEN
      results[position] := jsonb_set(jsonb_set(results[position], '{stored,values}',
          stored_values -> lead_ids[position]::text),
        '{stored,deliveries}', to_jsonb(coalesce(delivery_ids[delivery_start + 1 : delivery_ends[position]], '{}')));
      delivery_start := delivery_ends[position];
    END IF;
  END LOOP;

  IF cardinality(delivery_ids) > 0 THEN
    PERFORM record_lead_deliveries(delivery_ids, delivery_channels, delivery_kinds, delivery_leads,
      delivery_contacts);
  END IF;
  RETURN to_jsonb(results);
END $$;

DROP FUNCTION store_leads_together(jsonb);

-- Leads that waited for the database at the same moment (src/server/leads/batch.ts): the whole
-- statement together first; if it fails, everything it wrote is undone and each lead is stored
-- again on its own, so that an error is its lead's alone. One answer per lead, in the order sent.
CREATE FUNCTION store_lead_requests(p_leads jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  requests lead_request[] := ARRAY(
    SELECT jsonb_populate_record(NULL::lead_request, value)
    FROM jsonb_array_elements(p_leads) WITH ORDINALITY AS l (value, n) ORDER BY n);
  request lead_request;
  results jsonb[] := '{}';
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  IF cardinality(requests) > 1 THEN
    BEGIN
      RETURN store_leads_together(requests);
    EXCEPTION WHEN OTHERS THEN
      NULL; -- Everything the attempt wrote is undone: each lead again, on its own.
    END;
  END IF;
  FOREACH request IN ARRAY requests LOOP
    BEGIN
      results := results || (store_leads_together(ARRAY[request]) -> 0);
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS failed_code = RETURNED_SQLSTATE, failed_message = MESSAGE_TEXT,
        failed_hint = PG_EXCEPTION_HINT;
      results := results || jsonb_build_object('error',
        jsonb_build_object('code', failed_code, 'message', failed_message, 'hint', nullif(failed_hint, '')));
    END;
  END LOOP;
  RETURN to_jsonb(results);
END $$;

-- One lead (a lead alone, and every lead on Netlify): its answer, or its error raised with its
-- code, message and hint, as the INSERT's own error would be.
CREATE FUNCTION store_lead_request(p_lead jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  outcome jsonb := store_leads_together(ARRAY[jsonb_populate_record(NULL::lead_request, p_lead)]) -> 0;
BEGIN
  IF outcome ? 'error' AND outcome -> 'error' ->> 'hint' IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = outcome -> 'error' ->> 'code', MESSAGE = outcome -> 'error' ->> 'message',
      HINT = outcome -> 'error' ->> 'hint';
  ELSIF outcome ? 'error' THEN
    RAISE EXCEPTION USING ERRCODE = outcome -> 'error' ->> 'code', MESSAGE = outcome -> 'error' ->> 'message';
  END IF;
  RETURN outcome -> 'stored';
END $$;

-- The adapters for the deploy still serving during this migration's build (see the top).
CREATE OR REPLACE FUNCTION store_lead(
  p_table text, p_row jsonb, p_contact jsonb, p_key text, p_fingerprint text, p_kind text, p_channels text[],
  p_returning text[], p_rate_bucket text, p_rate_subject text, p_rate_window integer, p_rate_limit integer,
  p_first_reply jsonb DEFAULT NULL
) RETURNS jsonb LANGUAGE sql AS $$
  SELECT store_lead_request(jsonb_build_object('lead_table', p_table, 'lead_row', p_row, 'contact', p_contact,
    'idempotency_key', p_key, 'idempotency_fingerprint', p_fingerprint, 'lead_kind', p_kind,
    'channels', p_channels, 'returning_columns', p_returning, 'rate_bucket', p_rate_bucket,
    'rate_subject', p_rate_subject, 'rate_window', p_rate_window, 'rate_limit', p_rate_limit,
    'first_reply', p_first_reply))
$$;

CREATE OR REPLACE FUNCTION store_leads(p_leads jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT store_lead_requests(coalesce(jsonb_agg(jsonb_build_object('lead_table', l -> 0, 'lead_row', l -> 1,
    'contact', l -> 2, 'idempotency_key', l -> 3, 'idempotency_fingerprint', l -> 4, 'lead_kind', l -> 5,
    'channels', l -> 6, 'returning_columns', l -> 7, 'rate_bucket', l -> 8, 'rate_subject', l -> 9,
    'rate_window', l -> 10, 'rate_limit', l -> 11, 'first_reply', l -> 12) ORDER BY n), '[]'))
  FROM jsonb_array_elements(p_leads) WITH ORDINALITY AS e (l, n)
$$;

DROP TRIGGER cotizaciones_rapidas_contact ON cotizaciones_rapidas;
DROP TRIGGER quote_requests_contact ON quote_requests;
DROP TRIGGER partner_applications_contact ON partner_applications;
DROP FUNCTION leads_attach_contact();
