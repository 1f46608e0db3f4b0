-- Consent on record (issue #14): each lead keeps the version of the privacy
-- notice in force when it was sent and the time, and the optional marketing
-- consent, apart. Leads stored before have no version (NULL): unknown.
ALTER TABLE cotizaciones_rapidas
  ADD COLUMN privacy_version text CHECK (privacy_version ~ '^\d{4}-\d{2}-\d{2}$'),
  ADD COLUMN privacy_accepted_at timestamptz,
  ADD COLUMN marketing_consent boolean NOT NULL DEFAULT false;
ALTER TABLE quote_requests
  ADD COLUMN privacy_version text CHECK (privacy_version ~ '^\d{4}-\d{2}-\d{2}$'),
  ADD COLUMN privacy_accepted_at timestamptz,
  ADD COLUMN marketing_consent boolean NOT NULL DEFAULT false;
ALTER TABLE partner_applications
  ADD COLUMN privacy_version text CHECK (privacy_version ~ '^\d{4}-\d{2}-\d{2}$'),
  ADD COLUMN privacy_accepted_at timestamptz,
  ADD COLUMN marketing_consent boolean NOT NULL DEFAULT false;
