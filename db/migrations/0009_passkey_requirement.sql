-- "Require a passkey for administrators" (issue #12). A session remembers how
-- it was opened; while the setting is on, an administrator's password session
-- reaches only their own account (to add a first passkey), never the panel.
ALTER TABLE sessions ADD COLUMN method text NOT NULL DEFAULT 'password' CHECK (method IN ('password', 'passkey'));
ALTER TABLE team_settings ADD COLUMN admin_passkey_required boolean NOT NULL DEFAULT false;
