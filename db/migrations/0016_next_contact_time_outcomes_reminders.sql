-- The adviser's day (issue #26, decision 0035): a next contact with a time,
-- one-tap outcomes and attempts, and a reminder when a next contact comes due
-- (e-mail through the deliveries, Web Push to the member's devices).

-- 1. The next contact is an instant. A date stored so far becomes 10:00 in
--    Mérida (America/Merida, UTC-6 all year).
ALTER TABLE contacts ADD COLUMN next_contact_at timestamptz;
UPDATE contacts SET next_contact_at = (next_contact_on + time '10:00') AT TIME ZONE 'America/Merida'
 WHERE next_contact_on IS NOT NULL;
DROP INDEX contacts_next_contact_idx;
ALTER TABLE contacts DROP COLUMN next_contact_on;
CREATE INDEX contacts_next_contact_idx ON contacts (next_contact_at) WHERE next_contact_at IS NOT NULL;

-- The next contact whose reminder was sent: a reminder goes once per moment.
-- Moments already past when this runs count as reminded (no flood of old reminders at deploy).
ALTER TABLE contacts ADD COLUMN reminded_for timestamptz;
UPDATE contacts SET reminded_for = next_contact_at WHERE next_contact_at <= now();
-- The reminders still to send (the queue's upkeep looks here for one whose job was lost).
CREATE INDEX contacts_reminder_due_idx ON contacts (next_contact_at)
  WHERE next_contact_at IS NOT NULL AND reminded_for IS DISTINCT FROM next_contact_at;

-- 2. Attempts to reach the person (a call or WhatsApp pressed, or an outcome without one).
ALTER TABLE contacts ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0);

ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check
  CHECK (kind IN ('state', 'next_contact', 'reopened', 'note_deleted', 'assigned', 'outcome', 'attempt'));

-- 3. Reminders are deliveries too: one per contact, moment, member and channel.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_purpose_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_purpose_check
  CHECK (purpose IN ('lead', 'test', 'summary', 'reminder'));
ALTER TABLE notification_deliveries ADD COLUMN remind_at timestamptz;
ALTER TABLE notification_deliveries ADD COLUMN recipient_id uuid REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_reminder
  CHECK ((purpose = 'reminder') = (remind_at IS NOT NULL AND recipient_id IS NOT NULL AND contact_id IS NOT NULL));
CREATE UNIQUE INDEX notification_deliveries_reminder_key ON notification_deliveries
  (contact_id, remind_at, recipient_id, channel) WHERE purpose = 'reminder';

-- 4. A member's devices that accepted Web Push in the panel (RFC 8030 endpoint, RFC 8291 keys).
CREATE TABLE push_subscriptions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint    text NOT NULL CHECK (char_length(endpoint) BETWEEN 1 AND 2000),
  p256dh      text NOT NULL CHECK (char_length(p256dh) BETWEEN 1 AND 200),
  auth        text NOT NULL CHECK (char_length(auth) BETWEEN 1 AND 100),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint)
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);
