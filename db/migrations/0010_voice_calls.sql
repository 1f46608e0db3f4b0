-- Voice calls (issue #13): the voice platform's end-of-call report of every
-- call made from the site's widget, stored once per call id (the platform
-- retries), attributed to the visit, and joined to the contact of the phone
-- the visitor gave, when they gave one.
CREATE TABLE voice_calls (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The platform's call id: a replayed report finds it and stores nothing.
  call_id           text NOT NULL CHECK (char_length(call_id) BETWEEN 1 AND 100),
  contact_id        uuid REFERENCES contacts (id) ON DELETE CASCADE,
  started_at        timestamptz,
  ended_at          timestamptz,
  duration_seconds  numeric(10, 1) CHECK (duration_seconds >= 0),
  ended_reason      text CHECK (char_length(ended_reason) <= 200),
  summary           text CHECK (char_length(summary) <= 20000),
  transcript        text CHECK (char_length(transcript) <= 200000),
  -- The conversation, turn by turn: [{role: 'agente' | 'visitante', text, seconds}].
  messages          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(messages) = 'array'),
  recording_url     url_value,
  -- What the assistant extracted (analysis.structuredData), as sent, and its known fields.
  structured        jsonb CHECK (structured IS NULL OR jsonb_typeof(structured) = 'object'),
  name              person_name,
  phone             phone_e164,
  email             email_address,
  interest          text CHECK (char_length(interest) <= 500),
  cost              numeric(10, 4),
  -- The page the call started on and the visit's attribution, passed by the widget as metadata.
  page_path         url_value,
  utm_source        utm_value,
  utm_medium        utm_value,
  utm_campaign      utm_value,
  utm_term          utm_value,
  utm_content       utm_value,
  referrer          url_value,
  landing_path      url_value,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT voice_calls_call_id_key UNIQUE (call_id)
);
CREATE INDEX voice_calls_created_idx ON voice_calls (created_at DESC, id DESC);
CREATE INDEX voice_calls_contact_idx ON voice_calls (contact_id, created_at) WHERE contact_id IS NOT NULL;

-- A call that carries a phone is notified like any lead.
ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_lead_kind_check;
ALTER TABLE notification_deliveries ADD CONSTRAINT notification_deliveries_lead_kind_check
  CHECK (lead_kind IN ('quote-requests', 'partner-applications', 'quick-quotes', 'voice-calls'));
