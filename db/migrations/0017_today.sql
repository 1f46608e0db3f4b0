-- "Hoy" (issue #26): the day's list of a member ("mine") and of the team
-- ("all"), first page within 50 ms at 100,000 contacts. The next contact is
-- the instant `next_contact_at` (migration 0016;
-- src/server/contacts/next-contact.ts). The column itself is in each index,
-- so counts read the index alone (an index-only scan returns columns).

-- Overdue and today's, in the order they are due: everyone's, and each member's.
CREATE INDEX contacts_due_idx
  ON contacts (next_contact_at, id)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND next_contact_at IS NOT NULL;
CREATE INDEX contacts_due_member_idx
  ON contacts (assigned_to, next_contact_at, id)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND next_contact_at IS NOT NULL AND assigned_to IS NOT NULL;

-- New leads nobody has scheduled, oldest first.
CREATE INDEX contacts_new_idx
  ON contacts (created_at, id)
  WHERE state = 'nuevo' AND next_contact_at IS NULL;
CREATE INDEX contacts_new_member_idx
  ON contacts (assigned_to, created_at, id)
  WHERE state = 'nuevo' AND next_contact_at IS NULL;

-- The few `nuevo` contacts with a next contact: everyone's new section is the `nuevo` ones
-- (contact_state_counts) minus these.
CREATE INDEX contacts_new_scheduled_idx
  ON contacts (id) INCLUDE (next_contact_at)
  WHERE state = 'nuevo' AND next_contact_at IS NOT NULL;

-- A member's open contacts, latest activity first (the rest, and the count of them).
CREATE INDEX contacts_open_member_idx
  ON contacts (assigned_to, last_activity_at DESC, id DESC)
  WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido') AND assigned_to IS NOT NULL;
