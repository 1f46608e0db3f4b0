-- A review's finding: a device that asked for reminders kept receiving the names and phones of leads after
-- its member signed out, reset or changed their password, or was deactivated: nothing tied the device to a
-- session. Each device now keeps the session it was turned on in; ending that session (signing out) forgets
-- it, and ending a member's sessions (a reset, a change of password: every other device; a deactivation)
-- forgets their other devices (auth/users.ts). Devices stored before this migration have no session: they
-- are forgotten with the next end of their member's sessions. Nothing is sent to a deactivated member.
ALTER TABLE push_subscriptions ADD COLUMN session_id uuid;
CREATE INDEX push_subscriptions_session_idx ON push_subscriptions (session_id) WHERE session_id IS NOT NULL;
