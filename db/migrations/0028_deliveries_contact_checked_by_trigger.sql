-- Issue #25 (decision 0046): a lead's deliveries no longer run a foreign-key
-- check each on their contact; what the foreign key gave is kept otherwise.
--
-- Measured in one session, the check cost about 20 µs of the 95 a lead's
-- three deliveries cost to store; under `bench:api` with every channel on,
-- 0.85x and 0.86x of notifications off without it, against 0.77-0.85x with
-- it. A lead's deliveries are inserted by store_leads() (and a call's by
-- call-store.ts) in the transaction that stored the lead, with the lead's own
-- contact: the lead's row has its foreign key to that contact, which already
-- locks it against erasure until the lead commits. The check on each delivery
-- added nothing.
--
-- What the foreign key did, done here instead:
-- 1. Erasing a contact (or merging it away) deletes its deliveries, in the
--    same statement (ON DELETE CASCADE did).
-- 2. Any other delivery with a contact (a reminder, a WhatsApp message's
--    notice) is refused when its contact does not exist, and locks it against
--    erasure until it commits, exactly as the foreign key's check did.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_contact_id_fkey;

CREATE FUNCTION delete_erased_contacts_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notification_deliveries d USING erased WHERE d.contact_id = erased.id;
  RETURN NULL;
END $$;
CREATE TRIGGER contacts_deliveries_erased AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS erased FOR EACH STATEMENT EXECUTE FUNCTION delete_erased_contacts_deliveries();

CREATE FUNCTION check_delivery_contact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM contacts WHERE id = NEW.contact_id FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE foreign_key_violation USING
      MESSAGE = format('contact %s of a delivery does not exist', NEW.contact_id),
      CONSTRAINT = 'notification_deliveries_contact_id_fkey', TABLE = 'notification_deliveries';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER notification_deliveries_contact_exists BEFORE INSERT OR UPDATE OF contact_id ON notification_deliveries
  FOR EACH ROW WHEN (NEW.contact_id IS NOT NULL AND NEW.purpose <> 'lead')
  EXECUTE FUNCTION check_delivery_contact();
