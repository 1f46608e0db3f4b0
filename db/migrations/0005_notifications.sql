-- New-lead notifications (issue #11). graphile-worker (its own schema,
-- installed by `npm run db:migrate` after these files) schedules and locks the
-- jobs; this table is what the team sees: one row per lead and channel, with
-- its state, attempts and last error. A job carries only the row's id.

CREATE TABLE notification_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- lead: a stored lead; test: "Enviar prueba"; summary: the daily e-mail.
  purpose          text NOT NULL CHECK (purpose IN ('lead', 'test', 'summary')),
  channel          text NOT NULL CHECK (channel IN ('email', 'webhook', 'whatsapp')),
  lead_kind        text CHECK (lead_kind IN ('quote-requests', 'partner-applications', 'quick-quotes')),
  lead_id          uuid,
  -- Deleting a person (their contact) deletes what was sent about them.
  contact_id       uuid REFERENCES contacts (id) ON DELETE CASCADE,
  -- The Mérida date a summary covers (purpose = 'summary').
  summary_day      date,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error       text,
  -- When a worker took it (status = 'sending'): a worker that died is noticed by its age.
  claimed_at       timestamptz,
  -- The current claim's token: a sender writes the outcome only while the claim is still its own.
  claim_id         uuid,
  next_attempt_at  timestamptz,
  sent_at          timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT notification_deliveries_lead CHECK ((purpose = 'lead') = (lead_id IS NOT NULL AND lead_kind IS NOT NULL)),
  CONSTRAINT notification_deliveries_summary CHECK ((purpose = 'summary') = (summary_day IS NOT NULL))
);
-- One delivery per lead and channel, one summary per day and channel: enqueueing twice is impossible.
CREATE UNIQUE INDEX notification_deliveries_lead_key ON notification_deliveries (lead_id, channel) WHERE purpose = 'lead';
CREATE UNIQUE INDEX notification_deliveries_summary_key ON notification_deliveries (summary_day, channel)
  WHERE purpose = 'summary';
-- The Notificaciones page and the queue's upkeep: small partial indexes, none on every update.
CREATE INDEX notification_deliveries_sent_idx ON notification_deliveries (sent_at DESC) WHERE status = 'sent';
CREATE INDEX notification_deliveries_failed_idx ON notification_deliveries (updated_at DESC) WHERE status = 'failed';
CREATE INDEX notification_deliveries_waiting_idx ON notification_deliveries (updated_at)
  WHERE status IN ('pending', 'sending');
CREATE INDEX notification_deliveries_contact_idx ON notification_deliveries (contact_id);
