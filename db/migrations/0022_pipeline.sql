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

-- A member's (or nobody's) contacts counted and their deals summed per state through the index alone.
CREATE INDEX contacts_member_deals_idx ON contacts (assigned_to, state) INCLUDE (model_id, estimated_value_mxn);

-- Everyone's sums per state without reading the contacts (the board's 80 ms budget at 100,000 contacts):
-- per state and model, the deals valued at the model's catalogue price (`priced`: their sum is priced times
-- the price the catalogue has when the board is read, so a price changed in models.json counts at once) and
-- the deals with their own value (`overridden`, `override_sum`). model_id '' is a value without a model.
-- Kept exact by a trigger, as contact_state_counts is (migration 0004).
CREATE TABLE contact_deal_counts (
  state         text NOT NULL,
  model_id      text NOT NULL,
  priced        bigint NOT NULL DEFAULT 0 CHECK (priced >= 0),
  overridden    bigint NOT NULL DEFAULT 0 CHECK (overridden >= 0),
  override_sum  bigint NOT NULL DEFAULT 0 CHECK (override_sum >= 0),
  PRIMARY KEY (state, model_id)
);

CREATE FUNCTION contact_deal_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_in boolean := TG_OP <> 'INSERT' AND (OLD.model_id IS NOT NULL OR OLD.estimated_value_mxn IS NOT NULL);
  new_in boolean := TG_OP <> 'DELETE' AND (NEW.model_id IS NOT NULL OR NEW.estimated_value_mxn IS NOT NULL);
  old_key text := CASE WHEN old_in THEN coalesce(OLD.model_id, '') END;
  new_key text := CASE WHEN new_in THEN coalesce(NEW.model_id, '') END;
BEGIN
  IF NOT (old_in OR new_in) THEN RETURN NULL; END IF;
  IF new_in THEN
    INSERT INTO contact_deal_counts (state, model_id) VALUES (NEW.state, new_key) ON CONFLICT DO NOTHING;
  END IF;
  -- One statement for both rows: they are locked in index order, so two opposite moves cannot deadlock.
  UPDATE contact_deal_counts d SET
    priced = priced
      + CASE WHEN new_in AND d.state = NEW.state AND d.model_id = new_key AND NEW.estimated_value_mxn IS NULL THEN 1 ELSE 0 END
      - CASE WHEN old_in AND d.state = OLD.state AND d.model_id = old_key AND OLD.estimated_value_mxn IS NULL THEN 1 ELSE 0 END,
    overridden = overridden
      + CASE WHEN new_in AND d.state = NEW.state AND d.model_id = new_key AND NEW.estimated_value_mxn IS NOT NULL THEN 1 ELSE 0 END
      - CASE WHEN old_in AND d.state = OLD.state AND d.model_id = old_key AND OLD.estimated_value_mxn IS NOT NULL THEN 1 ELSE 0 END,
    override_sum = override_sum
      + CASE WHEN new_in AND d.state = NEW.state AND d.model_id = new_key THEN coalesce(NEW.estimated_value_mxn, 0) ELSE 0 END
      - CASE WHEN old_in AND d.state = OLD.state AND d.model_id = old_key THEN coalesce(OLD.estimated_value_mxn, 0) ELSE 0 END
  WHERE (new_in AND d.state = NEW.state AND d.model_id = new_key)
     OR (old_in AND d.state = OLD.state AND d.model_id = old_key);
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_deals_insert_delete AFTER INSERT OR DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_deal_counts_track();
CREATE TRIGGER contacts_deals_change AFTER UPDATE OF state, model_id, estimated_value_mxn ON contacts
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.model_id IS DISTINCT FROM NEW.model_id
                     OR OLD.estimated_value_mxn IS DISTINCT FROM NEW.estimated_value_mxn)
  EXECUTE FUNCTION contact_deal_counts_track();

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
