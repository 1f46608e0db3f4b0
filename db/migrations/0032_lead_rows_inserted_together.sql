-- Issue #25 (decision 0048): the rows of leads stored together are inserted
-- together. store_leads() (0024, 0025, 0030) ran store_lead() for each lead,
-- and store_lead() inserts its row with a statement written for it (EXECUTE:
-- parsed, planned and started for every lead). Measured under bench:api's
-- load with perf, that statement's parsing, planning and start were about a
-- sixth of PostgreSQL's time for a lead, more than its row's insertion.
--
-- Now store_leads() first tries the whole statement together
-- (store_leads_together()): each lead, in a subtransaction of its own, is
-- counted against the rate limit, checked against its idempotency key
-- (lead_gate(), store_lead()'s own first steps until now), gets its contact
-- (touch_contact()), its row's id (version 7, as the column's default makes
-- them, migration 0027) and its first reply; then one INSERT for each table
-- and set of columns adds every row (read from JSON as the columns' types by
-- jsonb_populate_recordset, as store_lead() read them), and one INSERT every
-- delivery, their ids made together (version 7 too). A lead refused before its row (over the
-- limit, a used key, a contact held for more than 2 s) is answered in its
-- place as before, and the others go on.
--
-- A row that its INSERT refuses (a CHECK, a key used twice in one statement)
-- fails that INSERT for every lead of it: then everything the attempt wrote
-- is undone, and each lead is stored again on its own, in a subtransaction of
-- its own, so that the error is the refused lead's alone, as it was. A lead
-- alone (store_lead()) takes the same way, so its row is stored as theirs.
DO $migration$
DECLARE
  generator text := CASE WHEN current_setting('server_version_num')::integer >= 180000
                         THEN 'uuidv7()' ELSE 'uuid_in_time_order()' END;
BEGIN
  EXECUTE format($function$
-- store_lead()'s first steps (migration 0020): the per-IP limit, then the
-- idempotency key. NULL: store the lead. Otherwise store_lead()'s answer:
-- {"limited": true}, {"conflict": true}, or the key's lead stored before.
-- The key's advisory lock is held until the transaction ends.
CREATE FUNCTION lead_gate(
  p_table text, p_key text, p_fingerprint text, p_returning text[],
  p_rate_bucket text, p_rate_subject text, p_rate_window integer, p_rate_limit integer
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  hit_count integer;
  existing jsonb;
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
    EXECUTE format('SELECT to_jsonb(l) FROM %%I l WHERE idempotency_key = $1', p_table) INTO existing USING p_key;
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
  RETURN NULL;
END $$;

-- store_lead() of migration 0020 (a lead alone: the batcher's lone lead, every
-- lead on Netlify) is now store_leads_together() of that one lead, so a lead's
-- row is inserted one way only: its error, caught there, is raised again with
-- its code, message and hint (what the callers read); an INSERT's error comes
-- through as it is.
CREATE OR REPLACE FUNCTION store_lead(
  p_table text, p_row jsonb, p_contact jsonb, p_key text, p_fingerprint text,
  p_kind text, p_channels text[], p_returning text[],
  p_rate_bucket text, p_rate_subject text, p_rate_window integer, p_rate_limit integer,
  p_first_reply jsonb DEFAULT NULL
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  outcome jsonb;
BEGIN
  outcome := store_leads_together(jsonb_build_array(jsonb_build_array(
    p_table, p_row, p_contact, p_key, p_fingerprint, p_kind, to_jsonb(coalesce(p_channels, '{}')),
    to_jsonb(coalesce(p_returning, '{}')), p_rate_bucket, p_rate_subject, p_rate_window, p_rate_limit,
    p_first_reply))) -> 0;
  IF outcome ? 'error' AND outcome -> 'error' ->> 'hint' IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = outcome -> 'error' ->> 'code', MESSAGE = outcome -> 'error' ->> 'message',
      HINT = outcome -> 'error' ->> 'hint';
  ELSIF outcome ? 'error' THEN
    RAISE EXCEPTION USING ERRCODE = outcome -> 'error' ->> 'code', MESSAGE = outcome -> 'error' ->> 'message';
  END IF;
  RETURN outcome -> 'stored';
END $$;

-- The leads of `p_leads` (store_leads()' argument), their rows inserted
-- together: one INSERT for each table, set of columns and set of returned
-- columns. The answer is store_leads()'. Raises when an INSERT of rows fails
-- (nothing of it is then kept, by the caller's subtransaction).
CREATE FUNCTION store_leads_together(p_leads jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lead jsonb;
  answer jsonb;
  results jsonb[] := '{}';
  lead_ids uuid[] := '{}';
  new_lead uuid;
  contact uuid;
  -- Each new lead's row, and the INSERT it goes in: its table, columns and returned columns.
  row_groups text[] := '{}';
  row_values jsonb[] := '{}';
  insert_group record;
  inserted integer;
  stored jsonb;
  stored_values jsonb := '{}';
  channels text[];
  -- Per lead: how many of the statement's deliveries there are up to its own (NULL: none stored).
  delivery_ends integer[] := '{}';
  delivery_start integer := 0;
  delivery_ids uuid[];
  delivery_leads uuid[] := '{}';
  delivery_contacts uuid[] := '{}';
  delivery_kinds text[] := '{}';
  delivery_channels text[] := '{}';
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  FOR lead IN SELECT value FROM jsonb_array_elements(p_leads) LOOP
    BEGIN
      new_lead := NULL;
      answer := NULL;
      IF (lead ->> 11)::integer > 0 OR lead ->> 3 IS NOT NULL THEN
        answer := lead_gate(lead ->> 0, lead ->> 3, lead ->> 4, ARRAY(SELECT jsonb_array_elements_text(lead -> 7)),
          lead ->> 8, lead ->> 9, (lead ->> 10)::integer, (lead ->> 11)::integer);
      END IF;
      IF answer IS NULL THEN
        contact := touch_contact(lead -> 2 ->> 'phone', lead -> 2 ->> 'name', lead -> 2 ->> 'name',
          lead -> 2 ->> 'email', lead -> 2 ->> 'municipality', ((lead -> 2) ->> 'buyer')::boolean,
          coalesce(lead -> 2 -> 'touch', '{}'));
        new_lead := %1$s;
        -- The channels' names (plain words) as an array without a query: the JSON array's text in braces.
        channels := translate((lead -> 6)::text, '[]', '{}')::text[];
        answer := jsonb_build_object('id', new_lead, 'created', true, 'deliveries', '[]'::jsonb,
          'firstReply', CASE WHEN jsonb_typeof(lead -> 12) = 'object' THEN queue_first_reply(contact, lead -> 12) END);
      END IF;
      -- Last: nothing after these can fail and leave a lead undone by its error in the lists.
      results := results || jsonb_build_object('stored', answer);
      lead_ids := lead_ids || new_lead;
      IF new_lead IS NOT NULL THEN
        row_groups := row_groups || jsonb_build_array(lead -> 0, lead -> 7)::text;
        row_values := row_values || ((lead -> 1) || jsonb_build_object('id', new_lead, 'contact_id', contact,
          'idempotency_key', lead -> 3, 'idempotency_fingerprint', lead -> 4));
        IF cardinality(channels) > 0 THEN
          delivery_channels := delivery_channels || channels;
          delivery_leads := delivery_leads || array_fill(new_lead, ARRAY[cardinality(channels)]);
          delivery_contacts := delivery_contacts || array_fill(contact, ARRAY[cardinality(channels)]);
          delivery_kinds := delivery_kinds || array_fill(lead ->> 5, ARRAY[cardinality(channels)]);
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

  -- Rows of one table with the same columns (a form's fields, whichever are sent) go in one INSERT.
  FOR insert_group IN
    SELECT g::jsonb ->> 0 AS lead_table, g::jsonb -> 1 AS returning_columns, k AS insert_columns,
           jsonb_agg(v ORDER BY n) AS insert_rows
    FROM unnest(row_groups, row_values) WITH ORDINALITY AS r (g, v, n),
         LATERAL (SELECT ARRAY(SELECT jsonb_object_keys(v)) AS k) AS keys
    GROUP BY g, k
  LOOP
    EXECUTE format(
      'WITH stored AS (
         INSERT INTO %%1$I (%%2$s) SELECT %%2$s FROM jsonb_populate_recordset(NULL::%%1$I, $1)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING id, jsonb_build_object(%%3$s) AS stored_values)
       SELECT count(*), jsonb_object_agg(id, stored_values) FROM stored',
      insert_group.lead_table,
      (SELECT string_agg(quote_ident(name), ', ') FROM unnest(insert_group.insert_columns) AS name),
      (SELECT string_agg(format('%%L, %%I', name, name), ', ')
       FROM unnest('{id}' || ARRAY(SELECT jsonb_array_elements_text(insert_group.returning_columns))) AS name))
    INTO inserted, stored USING insert_group.insert_rows;
    IF inserted < jsonb_array_length(insert_group.insert_rows) THEN
      -- A key used twice in this statement, or by a row stored without the key's lock (an older deploy).
      RAISE EXCEPTION 'idempotency key taken' USING ERRCODE = 'unique_violation', HINT = 'store_lead';
    END IF;
    stored_values := stored_values || stored;
  END LOOP;

  -- The deliveries' ids, made together, each lead's in its channels' order.
  delivery_ids := ARRAY(SELECT %1$s FROM generate_series(1, cardinality(delivery_channels)));
  FOR position IN 1 .. cardinality(lead_ids) LOOP
    IF lead_ids[position] IS NOT NULL THEN
      results[position] := jsonb_set(jsonb_set(results[position], '{stored,values}',
          stored_values -> lead_ids[position]::text),
        '{stored,deliveries}', to_jsonb(coalesce(delivery_ids[delivery_start + 1 : delivery_ends[position]], '{}')));
      delivery_start := delivery_ends[position];
    END IF;
  END LOOP;

  IF cardinality(delivery_ids) > 0 THEN
    INSERT INTO notification_deliveries (id, purpose, channel, lead_kind, lead_id, contact_id)
    SELECT id, 'lead', channel, kind, lead_id, contact_id
    FROM unnest(delivery_ids, delivery_channels, delivery_kinds, delivery_leads, delivery_contacts)
      AS d (id, channel, kind, lead_id, contact_id);
  END IF;
  RETURN to_jsonb(results);
END $$;
$function$, generator);
END
$migration$;

-- Leads that arrive together (migration 0024): first all together; when one
-- of their rows is refused, each on its own, its error its own.
CREATE OR REPLACE FUNCTION store_leads(p_leads jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lead jsonb;
  results jsonb[] := '{}';
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  IF jsonb_array_length(p_leads) > 1 THEN
    BEGIN
      RETURN store_leads_together(p_leads);
    EXCEPTION WHEN OTHERS THEN
      NULL; -- Everything the attempt wrote is undone: each lead again, on its own.
    END;
  END IF;
  FOR lead IN SELECT value FROM jsonb_array_elements(p_leads) LOOP
    BEGIN
      results := results || (store_leads_together(jsonb_build_array(lead)) -> 0);
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS failed_code = RETURNED_SQLSTATE, failed_message = MESSAGE_TEXT,
        failed_hint = PG_EXCEPTION_HINT;
      results := results || jsonb_build_object('error',
        jsonb_build_object('code', failed_code, 'message', failed_message, 'hint', nullif(failed_hint, '')));
    END;
  END LOOP;
  RETURN to_jsonb(results);
END $$;
