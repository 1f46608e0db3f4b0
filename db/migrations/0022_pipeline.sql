-- Issue #26, item 6 (decision 0041): the pipeline ("Embudo"). A contact's deal:
--   model_id             the model of interest, an id of src/data/models.json (checked by the API,
--                        not here: the catalogue changes without a migration)
--   estimated_value_mxn  the deal's value in pesos when the adviser overrides it; null means the
--                        model's catalogue price (read from the catalogue when the column is summed)
--   expected_close_on    when the adviser expects to close it (a day)
ALTER TABLE contacts
  ADD COLUMN model_id text CHECK (model_id ~ '^[a-z0-9][a-z0-9-]{0,59}$'),
  ADD COLUMN estimated_value_mxn integer CHECK (estimated_value_mxn BETWEEN 0 AND 100000000),
  ADD COLUMN expected_close_on date;

-- A member's (or nobody's) contacts counted per state through the index alone.
CREATE INDEX contacts_member_state_idx ON contacts (assigned_to, state);
-- The contacts with a value, summed per state without the table (index-only): everyone's or a member's.
CREATE INDEX contacts_valued_idx ON contacts (assigned_to, state) INCLUDE (model_id, estimated_value_mxn)
  WHERE model_id IS NOT NULL OR estimated_value_mxn IS NOT NULL;

-- History lines of a deal's fields:
--   model           the model of interest (from_value -> to_value: ids)
--   estimated_value the value overridden (pesos, or null back to the catalogue's price)
--   expected_close  the expected close day (YYYY-MM-DD)
-- Added to whatever the check allows when this runs (as migration 0018 does, reading both of the forms
-- PostgreSQL prints the check in).
DO $$
DECLARE
  allowed text[];
BEGIN
  -- The check reads either ARRAY['state'::text, …] (a list written out) or '{state,…}'::text[] (as 0018
  -- leaves it): every quoted literal, split at its commas, braces dropped.
  SELECT array_agg(DISTINCT token) INTO allowed
  FROM pg_constraint c,
       regexp_matches(pg_get_constraintdef(c.oid), '''([^'']*)''', 'g') AS m,
       regexp_split_to_table(trim(BOTH '{}' FROM m[1]), ',') AS token
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass
    AND token ~ '^[a-z_]+$';
  allowed := ARRAY(SELECT DISTINCT unnest(coalesce(allowed, '{}') || ARRAY['model', 'estimated_value', 'expected_close']));
  ALTER TABLE contact_events DROP CONSTRAINT IF EXISTS contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
