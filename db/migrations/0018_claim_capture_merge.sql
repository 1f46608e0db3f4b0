-- Issue #26, items 4 and 5 (decision 0037): a lead claimed ("Tomar"), typed in
-- by a member ("Nuevo prospecto"), a contact's name, phone and e-mail
-- corrected, and two contacts of one person merged. Each is a line of the
-- contact's history:
--   claimed     an adviser took the unassigned contact (to_value: their name)
--   captured    typed in by a member (to_value: where it came from, e.g. llamada)
--   name, phone, email   a correction (from_value -> to_value)
--   merged      another contact was merged into this one (from_value: its name and phone)
--
-- The kinds are added to whatever the check allows when this runs (other
-- migrations of the same issue add theirs), never a fixed list that could drop one.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  allowed := ARRAY(SELECT DISTINCT unnest(coalesce(allowed, '{}') || ARRAY['claimed', 'captured', 'name', 'phone', 'email', 'merged']));
  ALTER TABLE contact_events DROP CONSTRAINT IF EXISTS contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
