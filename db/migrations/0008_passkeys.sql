-- Passkeys (WebAuthn, issue #12): a member signs in with a passkey instead of
-- the password. Challenges live five minutes and are used once.

CREATE TABLE passkeys (
  id            text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]+$' AND char_length(id) BETWEEN 16 AND 1400),
  user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

CREATE TABLE webauthn_challenges (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid REFERENCES users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  challenge   text NOT NULL,
  expires_at  timestamptz NOT NULL DEFAULT now() + interval '5 minutes'
);
CREATE INDEX webauthn_challenges_expires_idx ON webauthn_challenges (expires_at);
