-- Issue #25 (decision 0047): store_leads() (migrations 0024, 0025) gives each
-- new lead's deliveries their ids before inserting them, so their one INSERT
-- for the whole statement is a plain INSERT of arrays: it no longer gathers
-- the leads as JSON, reads them back, joins the inserted rows to them and
-- folds the ids into each answer (about a fifth of what three deliveries a
-- lead cost to store, measured in one session). The ids are version 7, as
-- the column's default makes them (migration 0027); everything else is as
-- before: the deliveries are inserted in the statement's own transaction,
-- after every lead of it has run, and a lead's answer lists its deliveries'
-- ids in the order of its channels.
DO $migration$
DECLARE
  generator text := CASE WHEN current_setting('server_version_num')::integer >= 180000
                         THEN 'uuidv7()' ELSE 'uuid_in_time_order()' END;
BEGIN
  EXECUTE format($function$
CREATE OR REPLACE FUNCTION store_leads(p_leads jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lead jsonb;
  answer jsonb;
  results jsonb[] := '{}';
  ids uuid[];
  delivery_ids uuid[] := '{}';
  delivery_leads uuid[] := '{}';
  delivery_contacts uuid[] := '{}';
  delivery_kinds text[] := '{}';
  delivery_channels text[] := '{}';
  channels text[];
  contact uuid;
  failed_code text;
  failed_message text;
  failed_hint text;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  FOR lead IN SELECT value FROM jsonb_array_elements(p_leads) LOOP
    BEGIN
      answer := store_lead(
        lead ->> 0, lead -> 1, lead -> 2, lead ->> 3, lead ->> 4, lead ->> 5,
        '{}',
        ARRAY(SELECT jsonb_array_elements_text(lead -> 7)) || '{contact_id}',
        lead ->> 8, lead ->> 9, (lead ->> 10)::integer, (lead ->> 11)::integer,
        CASE WHEN jsonb_typeof(lead -> 12) = 'object' THEN lead -> 12 END);
      IF (answer ->> 'created')::boolean AND jsonb_array_length(lead -> 6) > 0 THEN
        channels := ARRAY(SELECT jsonb_array_elements_text(lead -> 6));
        ids := ARRAY(SELECT %1$s FROM unnest(channels));
        contact := (answer -> 'values' ->> 'contact_id')::uuid;
        answer := jsonb_set(answer, '{deliveries}', to_jsonb(ids));
      ELSE
        ids := '{}';
      END IF;
      -- The contact was asked for here, not by the caller: its answer keeps only what it asked for.
      IF answer ? 'values' AND NOT (lead -> 7) ? 'contact_id' THEN
        answer := jsonb_set(answer, '{values}', (answer -> 'values') - 'contact_id');
      END IF;
      results := results || jsonb_build_object('stored', answer);
      -- Last: nothing after these can fail and leave deliveries for a lead undone by its error.
      IF cardinality(ids) > 0 THEN
        delivery_ids := delivery_ids || ids;
        delivery_channels := delivery_channels || channels;
        delivery_leads := delivery_leads || array_fill((answer ->> 'id')::uuid, ARRAY[cardinality(ids)]);
        delivery_contacts := delivery_contacts || array_fill(contact, ARRAY[cardinality(ids)]);
        delivery_kinds := delivery_kinds || array_fill(lead ->> 5, ARRAY[cardinality(ids)]);
      END IF;
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS failed_code = RETURNED_SQLSTATE, failed_message = MESSAGE_TEXT,
        failed_hint = PG_EXCEPTION_HINT;
      results := results || jsonb_build_object('error',
        jsonb_build_object('code', failed_code, 'message', failed_message, 'hint', nullif(failed_hint, '')));
    END;
  END LOOP;

  IF cardinality(delivery_ids) > 0 THEN
    INSERT INTO notification_deliveries (id, purpose, channel, lead_kind, lead_id, contact_id)
    SELECT id, 'lead', channel, kind, lead_id, contact_id
    FROM unnest(delivery_ids, delivery_channels, delivery_kinds, delivery_leads, delivery_contacts)
      AS d (id, channel, kind, lead_id, contact_id);
  END IF;
  RETURN to_jsonb(results);
END $$
$function$, generator);
END
$migration$;
