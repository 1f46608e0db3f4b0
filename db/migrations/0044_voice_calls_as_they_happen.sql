-- Issue #42 (decision 0071): a call on record while it runs.
--
-- A call's row is made by the first server message of the call (a status
-- update or a tool call), not only by its end-of-call report: the tools the
-- agent calls during the call store the person (guardar_prospecto), book a
-- visit and send a WhatsApp while the buyer is still talking, and a lost
-- report loses none of it. `reported_at` says the report arrived (a replay of
-- it changes nothing); before 0044 every row was made by its report.
ALTER TABLE voice_calls ADD COLUMN reported_at timestamptz;
UPDATE voice_calls SET reported_at = created_at;
-- The call's last status as the platform said it (in-progress, ended...).
ALTER TABLE voice_calls ADD COLUMN status text CHECK (char_length(status) <= 40);

-- What happened during a call, in order: the platform's status updates (each
-- once per call) and the agent's tool calls (each once per toolCallId, with
-- the sentence the agent was answered, which a replay of the same id gets
-- again). The contact's history shows them through the call's contact.
CREATE TABLE voice_call_events (
  id uuid PRIMARY KEY DEFAULT uuidv7(),
  call_id text NOT NULL REFERENCES voice_calls (call_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('status', 'tool')),
  -- The status (in-progress, ended...) or the tool's name (buscar_modelos...).
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  tool_call_id text UNIQUE CHECK (char_length(tool_call_id) BETWEEN 1 AND 100),
  arguments jsonb,
  -- What the agent was told: a short Spanish sentence it reads aloud.
  result text CHECK (char_length(result) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT voice_call_events_tool_has_id CHECK ((kind = 'tool') = (tool_call_id IS NOT NULL))
);
CREATE INDEX voice_call_events_call_idx ON voice_call_events (call_id, created_at);
CREATE UNIQUE INDEX voice_call_events_status_once ON voice_call_events (call_id, name) WHERE kind = 'status';

-- A visit booked by the agent during a call.
ALTER TABLE appointments DROP CONSTRAINT appointments_source_check;
ALTER TABLE appointments ADD CONSTRAINT appointments_source_check
  CHECK (source IN ('sitio', 'panel', 'whatsapp', 'voz'));
