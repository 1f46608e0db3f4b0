-- Issue #43 (decision 0083): a person who wrote from a Click-to-WhatsApp ad answers the forms'
-- consent question («Quiero recibir novedades y promociones») with a button; the answer is a
-- line of their history, `marketing_consent` ('si' or 'no'), which the conversions read.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT string_to_array((regexp_match(pg_get_constraintdef(c.oid), '''\{([a-z_,]*)\}'''))[1], ',') INTO allowed
  FROM pg_constraint c
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  IF allowed IS NULL THEN
    RAISE EXCEPTION 'contact_events_kind_check is not in its 0018 form';
  END IF;
  IF NOT 'marketing_consent' = ANY (allowed) THEN
    allowed := allowed || 'marketing_consent'::text;
  END IF;
  ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;

-- The answer's value, nothing else (the history's other kinds keep their own rules).
ALTER TABLE contact_events ADD CONSTRAINT contact_events_marketing_consent_check
  CHECK (kind <> 'marketing_consent' OR to_value IN ('si', 'no'));
