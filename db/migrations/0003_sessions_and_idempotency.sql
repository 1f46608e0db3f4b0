-- Server-side sessions: a session token names its row, and signing out,
-- a password change or a deactivated user ends it at once (revoked_at).
CREATE TABLE sessions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- An idempotency key is bound to its request: the SHA-256 (hex) of the endpoint
-- and the validated payload. The same key with another payload is refused.
-- Rows stored before this column have none and replay as before.
ALTER TABLE cotizaciones_rapidas ADD COLUMN idempotency_fingerprint text CHECK (idempotency_fingerprint ~ '^[0-9a-f]{64}$');
ALTER TABLE quote_requests ADD COLUMN idempotency_fingerprint text CHECK (idempotency_fingerprint ~ '^[0-9a-f]{64}$');
ALTER TABLE partner_applications ADD COLUMN idempotency_fingerprint text CHECK (idempotency_fingerprint ~ '^[0-9a-f]{64}$');
