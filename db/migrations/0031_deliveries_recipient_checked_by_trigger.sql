-- Issue #25 (decision 0047): a delivery's recipient (the member a reminder or
-- a message's notice goes to) is checked by a trigger instead of a foreign
-- key, as its contact is since migration 0028.
--
-- A lead's deliveries never have a recipient, yet the foreign key's check ran
-- for each of them (a deferred trigger per row that finds the column null):
-- measured in one session, about 18 µs of a lead's three deliveries, with
-- every channel on, out of about 80. The trigger below is skipped by its WHEN
-- for every row without a recipient, before any call.
--
-- What the foreign key did, done here instead:
-- 1. Deleting members deletes the deliveries addressed to them, in the same
--    statement (ON DELETE CASCADE did).
-- 2. A delivery with a recipient is refused when the member does not exist,
--    with the old constraint's name and code (23503), and locks the member
--    against deletion until it commits, as the foreign key's check did.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_recipient_id_fkey;

CREATE FUNCTION delete_removed_members_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notification_deliveries d USING removed WHERE d.recipient_id = removed.id;
  RETURN NULL;
END $$;
CREATE TRIGGER users_deliveries_removed AFTER DELETE ON users
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION delete_removed_members_deliveries();

CREATE FUNCTION check_delivery_recipient() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = NEW.recipient_id FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE foreign_key_violation USING
      MESSAGE = format('member %s of a delivery does not exist', NEW.recipient_id),
      CONSTRAINT = 'notification_deliveries_recipient_id_fkey', TABLE = 'notification_deliveries';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER notification_deliveries_recipient_exists BEFORE INSERT OR UPDATE OF recipient_id ON notification_deliveries
  FOR EACH ROW WHEN (NEW.recipient_id IS NOT NULL)
  EXECUTE FUNCTION check_delivery_recipient();
