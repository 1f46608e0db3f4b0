-- A team instead of one shared password (issue #12): roles, names,
-- deactivation, invitations, password resets and an append-only activity log.

-- Members: a name, active or not, the last sign-in.
ALTER TABLE users
  ADD COLUMN name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 120),
  ADD COLUMN deactivated_at timestamptz,
  ADD COLUMN last_sign_in_at timestamptz;

-- Two roles; one role per member. The first administrator is no longer the
-- only one: the one-time setup now relies on its own singleton row below.
DROP INDEX user_roles_single_admin_idx;
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('admin', 'asesor'));
CREATE UNIQUE INDEX user_roles_one_per_user_idx ON user_roles (user_id);

-- The one-time setup: at most one row, ever. Concurrent setups race on its key.
CREATE TABLE first_admin_setup (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  user_id     uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO first_admin_setup (user_id)
SELECT user_id FROM user_roles WHERE role = 'admin' LIMIT 1;

-- Invitations: a one-time link, stored only as the SHA-256 of its token.
CREATE TABLE invitations (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email        text NOT NULL CHECK (email = lower(email) AND char_length(email) BETWEEN 3 AND 254),
  role         text NOT NULL CHECK (role IN ('admin', 'asesor')),
  token_hash   text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  invited_by   uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX invitations_open_idx ON invitations (created_at DESC) WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- Password resets: one-time links, hashed, valid 30 minutes.
CREATE TABLE password_resets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash  text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

-- Who did what, when. The actor's name is copied: the record outlives a
-- rename or a deactivation. Append-only: the trigger refuses every change.
CREATE TABLE activity_log (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  at          timestamptz NOT NULL DEFAULT now(),
  actor_id    uuid,
  actor_name  text,
  kind        text NOT NULL CHECK (kind ~ '^[a-z_]{3,40}$'),
  summary     text NOT NULL CHECK (char_length(summary) <= 500),
  details     jsonb NOT NULL DEFAULT '{}',
  ip          text
);
CREATE INDEX activity_log_at_idx ON activity_log (at DESC, id DESC);
CREATE INDEX activity_log_actor_idx ON activity_log (actor_id, at DESC);
CREATE INDEX activity_log_kind_idx ON activity_log (kind, at DESC);

CREATE FUNCTION activity_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity_log is append-only';
END;
$$;
CREATE TRIGGER activity_log_append_only
  BEFORE UPDATE OR DELETE ON activity_log
  FOR EACH ROW EXECUTE FUNCTION activity_log_is_append_only();
CREATE TRIGGER activity_log_no_truncate
  BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION activity_log_is_append_only();
