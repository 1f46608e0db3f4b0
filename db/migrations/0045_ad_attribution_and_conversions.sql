-- Issue #43 (decision 0072): from ad to sale.
--
-- The ad platforms' click ids of a visit, kept with each lead and call as its
-- UTM values are (first-party, from the landing page's URL): Google's gclid,
-- gbraid and wbraid, Meta's fbc (`fb.1.<first seen, ms>.<fbclid>`). They reach
-- the contact's first and last touch with the rest of the attribution
-- (touch_contact(), unchanged: the touch is a JSON object). A conversation
-- from a Click-to-WhatsApp ad keeps its referral's ctwa_clid there too.
CREATE DOMAIN click_id AS text CHECK (char_length(VALUE) BETWEEN 1 AND 500 AND VALUE ~ '^[!-~]+$');

ALTER TABLE cotizaciones_rapidas
  ADD COLUMN gclid click_id, ADD COLUMN gbraid click_id, ADD COLUMN wbraid click_id, ADD COLUMN fbc click_id;
ALTER TABLE quote_requests
  ADD COLUMN gclid click_id, ADD COLUMN gbraid click_id, ADD COLUMN wbraid click_id, ADD COLUMN fbc click_id;
ALTER TABLE partner_applications
  ADD COLUMN gclid click_id, ADD COLUMN gbraid click_id, ADD COLUMN wbraid click_id, ADD COLUMN fbc click_id;
ALTER TABLE voice_calls
  ADD COLUMN gclid click_id, ADD COLUMN gbraid click_id, ADD COLUMN wbraid click_id, ADD COLUMN fbc click_id;

-- What marketing spent on a campaign in a month, typed in the panel (Métricas → Campañas).
CREATE TABLE campaign_spend (
  source text NOT NULL CHECK (char_length(source) BETWEEN 1 AND 200),
  campaign text NOT NULL CHECK (char_length(campaign) BETWEEN 1 AND 200),
  month date NOT NULL CHECK (month = date_trunc('month', month)::date),
  amount_mxn integer NOT NULL CHECK (amount_mxn BETWEEN 0 AND 1000000000),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, campaign, month)
);

-- The conversions told to the ad platforms, once each (destination, event_id): found by the queue's
-- upkeep from what happened (a lead, a visit booked, a consultation paid, a house sold), sent by its
-- job with retries; `sin_consentimiento` and `sin_identificador` are kept so the report can say what
-- was not sent and why. The payload is what was (or would be) sent: hashed, never in clear.
CREATE TABLE ad_conversions (
  id uuid PRIMARY KEY DEFAULT uuidv7(),
  destination text NOT NULL CHECK (destination IN ('meta', 'google')),
  event text NOT NULL CHECK (event IN ('lead', 'schedule', 'purchase', 'won')),
  event_id text NOT NULL CHECK (char_length(event_id) BETWEEN 1 AND 200),
  contact_id uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL,
  value_mxn integer CHECK (value_mxn >= 0),
  status text NOT NULL DEFAULT 'pendiente'
    CHECK (status IN ('pendiente', 'enviado', 'fallido', 'sin_consentimiento', 'sin_identificador')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text CHECK (char_length(last_error) <= 500),
  payload jsonb,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (destination, event_id)
);
CREATE INDEX ad_conversions_due_idx ON ad_conversions (destination, next_attempt_at) WHERE status = 'pendiente';
CREATE INDEX ad_conversions_contact_idx ON ad_conversions (contact_id);

-- The campaign report groups people by their first touch: its source, campaign and ad as columns of
-- their own (read without taking the JSON apart for every person of a year, which was a third of the report).
ALTER TABLE contacts
  ADD COLUMN first_source text GENERATED ALWAYS AS (first_touch ->> 'utm_source') STORED,
  ADD COLUMN first_campaign text GENERATED ALWAYS AS (first_touch ->> 'utm_campaign') STORED,
  ADD COLUMN first_ad text GENERATED ALWAYS AS (first_touch ->> 'utm_content') STORED;
