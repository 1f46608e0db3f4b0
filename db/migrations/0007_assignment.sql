-- Assignment of contacts to team members (issue #12): who follows whom,
-- "Mis prospectos", and an optional round-robin among active advisers.

ALTER TABLE contacts ADD COLUMN assigned_to uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX contacts_assigned_idx ON contacts (assigned_to, last_activity_at DESC) WHERE assigned_to IS NOT NULL;

ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check
  CHECK (kind IN ('state', 'next_contact', 'reopened', 'note_deleted', 'assigned'));

-- One row: the team's settings. `last_assigned` is where the round-robin continues.
CREATE TABLE team_settings (
  singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  round_robin    boolean NOT NULL DEFAULT false,
  last_assigned  uuid REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO team_settings DEFAULT VALUES;
