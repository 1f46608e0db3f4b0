-- "Hoy" (issue #26): the day's list of a member ("mine") and of the team
-- ("all"), first page within 50 ms at 100,000 contacts. The next contact is
-- read as an instant (src/server/contacts/next-contact.ts: a date is its
-- midnight in Mérida), so the indexes are on that expression; when the column
-- becomes next_contact_at timestamptz, dropping next_contact_on drops these
-- and the same indexes are made on the new column.

-- Overdue and today's, in the order they are due: everyone's, and each member's. The date
-- itself is included so their counts read the index alone (an index-only scan cannot
-- return an expression, only columns).
CREATE INDEX contacts_due_idx
  ON contacts (((next_contact_on::timestamp AT TIME ZONE 'America/Merida')), id) INCLUDE (next_contact_on)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND next_contact_on IS NOT NULL;
CREATE INDEX contacts_due_member_idx
  ON contacts (assigned_to, ((next_contact_on::timestamp AT TIME ZONE 'America/Merida')), id) INCLUDE (next_contact_on)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND next_contact_on IS NOT NULL AND assigned_to IS NOT NULL;

-- New leads nobody has scheduled, oldest first.
CREATE INDEX contacts_new_idx
  ON contacts (created_at, id)
  WHERE state = 'nuevo' AND (next_contact_on::timestamp AT TIME ZONE 'America/Merida') IS NULL;
CREATE INDEX contacts_new_member_idx
  ON contacts (assigned_to, created_at, id)
  WHERE state = 'nuevo' AND (next_contact_on::timestamp AT TIME ZONE 'America/Merida') IS NULL;

-- The few `nuevo` contacts with a next contact: everyone's new section is the `nuevo` ones
-- (contact_state_counts) minus these.
CREATE INDEX contacts_new_scheduled_idx
  ON contacts (id) INCLUDE (next_contact_on)
  WHERE state = 'nuevo' AND (next_contact_on::timestamp AT TIME ZONE 'America/Merida') IS NOT NULL;

-- A member's open contacts, latest activity first (the rest, and the count of them).
CREATE INDEX contacts_open_member_idx
  ON contacts (assigned_to, last_activity_at DESC, id DESC)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND assigned_to IS NOT NULL;
