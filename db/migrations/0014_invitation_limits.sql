-- Issue #23: invitations are counted per inviting administrator (per hour)
-- and per invited address (per day), and a member who is deactivated or
-- demoted has the invitations they sent revoked: each looks them up by
-- sender or by address, newest first.
CREATE INDEX invitations_invited_by_idx ON invitations (invited_by, created_at DESC);
CREATE INDEX invitations_email_idx ON invitations (email, created_at DESC);
