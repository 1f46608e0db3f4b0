-- Issue #23: failed sign-ins are counted per method (a password, including the
-- current one asked by the password change, or a passkey), so a guesser of
-- one cannot lock the other; each count is per address and per account.
ALTER TABLE login_failures
  ADD COLUMN method text NOT NULL DEFAULT 'password' CHECK (method IN ('password', 'passkey'));
DROP INDEX login_failures_email_idx;
DROP INDEX login_failures_ip_idx;
CREATE INDEX login_failures_email_idx ON login_failures (method, email, failed_at DESC);
CREATE INDEX login_failures_ip_idx ON login_failures (method, ip, failed_at DESC);

-- How many rows failed sign-ins wrote to the append-only activity log in each
-- 15-minute window, per bucket (one member, or all strangers): past a few,
-- the log gets one line saying more came, then nothing until the next window.
CREATE TABLE sign_in_log_quota (
  bucket        text NOT NULL CHECK (char_length(bucket) <= 100),
  window_start  timestamptz NOT NULL,
  used          integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
