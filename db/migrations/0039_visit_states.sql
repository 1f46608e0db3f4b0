-- Issue #40, part 5 (decision 0062): the pipeline knows the visit. Two open
-- states join the contact's, between en_seguimiento and the closed ones:
--   visita_agendada  the person booked a visit or a consultation (a booking moves an earlier open
--                    contact here: src/server/appointments/pipeline-moves.ts)
--   visito           the person came (the adviser's "Asistió" moves them here)
-- Both are open: the indexes and conditions that name the closed states
-- (cerrado_ganado, cerrado_perdido) count them as open without a change.
-- contact_state_counts is a view over contact_state_changes (0015): a state
-- without rows counts 0 until its first contact arrives.
ALTER TABLE contacts DROP CONSTRAINT contacts_state_check;
ALTER TABLE contacts ADD CONSTRAINT contacts_state_check CHECK (
  state IN ('nuevo', 'contactado', 'en_seguimiento', 'visita_agendada', 'visito', 'cerrado_ganado', 'cerrado_perdido')
);
