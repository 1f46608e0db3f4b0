-- A lead in one round trip, and no hot row (issue #25, decision 0030).
--
-- 1. Contacts per state without a row every writer locks: the trigger used
--    to add 1 to the one `nuevo` row of contact_state_counts for every new
--    contact, so every first lead of a person waited for the one before it to
--    commit. Now every change is a row of its own (inserted, never updated:
--    writers never wait for each other), the counts are their sums, and the
--    rows are folded into one per state from time to time (by whoever gets
--    the advisory lock; nobody waits for it), which keeps the sums exact.
-- 2. store_lead(): the rate limit, the idempotency check, the contact (new,
--    updated or reopened, and its round-robin adviser), the lead and its
--    notifications' deliveries, in one statement: one round trip to
--    PostgreSQL, atomic without BEGIN / COMMIT.

CREATE TABLE contact_state_changes (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  state    text NOT NULL,
  -- +1 / -1 for one contact, or the sum of many once folded.
  change   bigint NOT NULL
);
-- Locked first: a change committed by the previous deploy while this runs is copied, not lost.
LOCK TABLE contact_state_counts IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO contact_state_changes (state, change)
SELECT state, contacts FROM contact_state_counts WHERE contacts <> 0;

DROP TABLE contact_state_counts;

-- Contacts per state: exact (every committed change), one row per state that has any.
CREATE VIEW contact_state_counts AS
  SELECT state, sum(change)::bigint AS contacts FROM contact_state_changes GROUP BY state;

-- Folds the changes into one row per state, unless another fold is running
-- (then nothing: that one does it). Rows of transactions still running are
-- not seen by the DELETE and stay for the next fold. Returns the rows folded.
CREATE FUNCTION fold_contact_state_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  folded bigint := 0;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtextextended('contact_state_changes', 0)) THEN
    RETURN 0;
  END IF;
  WITH gone AS (DELETE FROM contact_state_changes RETURNING state, change),
  summed AS (SELECT state, sum(change) AS change, count(*) AS n FROM gone GROUP BY state),
  kept AS (INSERT INTO contact_state_changes (state, change) SELECT state, change FROM summed WHERE change <> 0)
  SELECT coalesce(sum(n), 0) INTO folded FROM summed;
  RETURN folded;
END $$;

-- The trigger of 0004 (insert, delete, change of state) now adds rows; about
-- one change in a thousand also folds them, so a read sums about a thousand
-- rows at most (figures in docs/benchmarks.md, `npm run bench:counts`).
CREATE OR REPLACE FUNCTION contact_state_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_state_changes (state, change)
  SELECT NEW.state, 1 WHERE TG_OP <> 'DELETE'
  UNION ALL
  SELECT OLD.state, -1 WHERE TG_OP <> 'INSERT';
  IF random() < 0.001 THEN
    PERFORM fold_contact_state_changes();
  END IF;
  RETURN NULL;
END $$;

-- The contact of a new lead or call (was src/server/contacts/touch.ts): created
-- on the first lead from a phone (and given the round-robin's next adviser),
-- or brought up to date: latest name, latest non-empty e-mail and place, kind,
-- latest attribution, last activity. A closed contact reopens as `nuevo`, and
-- its history says so. Concurrent first leads from one phone give one contact:
-- the unique phone makes the second INSERT wait, then update. `p_name` null
-- (a call without a name): a new contact is called `p_nameless`.
CREATE FUNCTION touch_contact(
  p_phone text, p_name text, p_nameless text, p_email text, p_municipality text,
  p_buyer boolean, p_touch jsonb
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  contact uuid;
  previous text;
  reopen boolean;
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

  SELECT id, state INTO contact, previous FROM contacts WHERE phone = p_phone FOR UPDATE;
  IF contact IS NULL THEN
    RAISE EXCEPTION 'contact vanished while its lead was stored';
  END IF;
  reopen := previous IN ('cerrado_ganado', 'cerrado_perdido');
  UPDATE contacts SET
    name = coalesce(p_name, name),
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
  END IF;
  RETURN contact;
END $$;

-- One delivery per channel for a lead just stored (its outbox rows, in the
-- lead's statement). A form's lead gets their jobs after the answer, many
-- leads' at once (scheduleSoon in src/server/notifications/queue.ts):
-- add_jobs sends a NOTIFY, and transactions that NOTIFY commit one at a
-- time (decision 0030). A delivery whose job never came is queued by the
-- queue's upkeep (maintainQueue).
CREATE FUNCTION record_lead_notifications(
  p_kind text, p_lead uuid, p_contact uuid, p_channels text[]
) RETURNS uuid[] LANGUAGE sql AS $$
  WITH delivery AS (
    INSERT INTO notification_deliveries (purpose, channel, lead_kind, lead_id, contact_id)
    SELECT 'lead', channel, p_kind, p_lead, p_contact FROM unnest(p_channels) AS channel
    RETURNING id
  )
  SELECT coalesce(array_agg(id), '{}') FROM delivery
$$;

-- The same, and one job per delivery under its channel's task (`p_task_prefix`
-- || channel) in one add_jobs call, in the caller's transaction: a voice
-- call's notifications (a few a day). Was a statement of
-- src/server/notifications/queue.ts.
CREATE FUNCTION queue_lead_notifications(
  p_kind text, p_lead uuid, p_contact uuid, p_channels text[], p_task_prefix text
) RETURNS uuid[] LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF coalesce(cardinality(p_channels), 0) = 0 THEN
    RETURN '{}';
  END IF;
  ids := record_lead_notifications(p_kind, p_lead, p_contact, p_channels);
  PERFORM count(*) FROM graphile_worker.add_jobs(array(
    SELECT ROW(p_task_prefix || d.channel, json_build_object('deliveryId', d.id), NULL, now(), 3,
               'delivery:' || d.id, NULL, NULL)::graphile_worker.job_spec
    FROM notification_deliveries d WHERE d.id = ANY (ids)));
  RETURN ids;
END $$;

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
  p_rate_bucket text, p_rate_subject text, p_rate_window integer, p_rate_limit integer
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
  RETURN jsonb_build_object('id', new_lead, 'created', true, 'deliveries', to_jsonb(coalesce(deliveries, '{}')),
    'values', stored);
END $$;

-- The trigger of 0004 that gives a contact to a lead stored without one (a
-- deploy older than contacts) ran a PL/pgSQL call on every lead; now only on
-- those, decided by its WHEN before any call.
DROP TRIGGER cotizaciones_rapidas_contact ON cotizaciones_rapidas;
DROP TRIGGER quote_requests_contact ON quote_requests;
DROP TRIGGER partner_applications_contact ON partner_applications;
CREATE TRIGGER cotizaciones_rapidas_contact BEFORE INSERT ON cotizaciones_rapidas
  FOR EACH ROW WHEN (NEW.contact_id IS NULL) EXECUTE FUNCTION leads_attach_contact();
CREATE TRIGGER quote_requests_contact BEFORE INSERT ON quote_requests
  FOR EACH ROW WHEN (NEW.contact_id IS NULL) EXECUTE FUNCTION leads_attach_contact();
CREATE TRIGGER partner_applications_contact BEFORE INSERT ON partner_applications
  FOR EACH ROW WHEN (NEW.contact_id IS NULL) EXECUTE FUNCTION leads_attach_contact();
