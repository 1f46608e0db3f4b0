-- Issue #40, parts 4 and 5 (decision 0060): what the buyer and the adviser
-- receive about an appointment.
--
-- 1. `calendar_sequence`: the SEQUENCE of the appointment's calendar file
--    (RFC 5545), raised by every move and by the cancellation, so a
--    calendar that already holds the event replaces it (same UID) instead of
--    adding another or ignoring the change.
-- 2. 'appointment_message' joins the kinds of the contact's history: an
--    e-mail about an appointment sent to the buyer, or one that could not be
--    sent (its WhatsApp messages are in the conversation, as every message).

ALTER TABLE appointments ADD COLUMN calendar_sequence integer NOT NULL DEFAULT 0 CHECK (calendar_sequence >= 0);

DO $$
DECLARE
  allowed text[];
BEGIN
  -- The check reads CHECK (kind = ANY ('{a,b}'::text[])) since 0018.
  SELECT string_to_array((regexp_match(pg_get_constraintdef(c.oid), '''\{([a-z_,]*)\}'''))[1], ',') INTO allowed
  FROM pg_constraint c
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  IF allowed IS NULL THEN
    RAISE EXCEPTION 'contact_events_kind_check is not in its 0018 form';
  END IF;
  IF NOT 'appointment_message' = ANY (allowed) THEN
    allowed := allowed || 'appointment_message'::text;
  END IF;
  ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
