-- A tool call's id is unique within its call, not across calls (voice review, 2026-12-01).
--
-- The answers kept by tool_call_id alone (unique over every call): a second call whose model reused an id
-- (OpenAI's are random today; a provider that numbers them from call_0 would not be) was answered with the
-- first call's answer, the first caller's name read aloud, and its own lead never stored.
ALTER TABLE voice_call_events DROP CONSTRAINT voice_call_events_tool_call_id_key;
ALTER TABLE voice_call_events ADD CONSTRAINT voice_call_events_tool_call_key UNIQUE (call_id, tool_call_id);
