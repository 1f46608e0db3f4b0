-- Failed administrator logins, to refuse a sixth attempt within 15 minutes
-- for the same e-mail or the same IP address (sliding window).
CREATE TABLE login_failures (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email       text NOT NULL CHECK (char_length(email) <= 254),
  ip          text NOT NULL CHECK (char_length(ip) <= 64),
  failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (email, failed_at DESC);
CREATE INDEX login_failures_ip_idx ON login_failures (ip, failed_at DESC);
-- Lists page newest first by (created_at, id).
CREATE INDEX cotizaciones_rapidas_page_idx ON cotizaciones_rapidas (created_at DESC, id DESC);
CREATE INDEX quote_requests_page_idx ON quote_requests (created_at DESC, id DESC);
CREATE INDEX partner_applications_page_idx ON partner_applications (created_at DESC, id DESC);
-- The (created_at, id) indexes above serve everything the created_at ones did.
DROP INDEX cotizaciones_rapidas_created_at_idx;
DROP INDEX quote_requests_created_at_idx;
DROP INDEX partner_applications_created_at_idx;
