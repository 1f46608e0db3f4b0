-- Scratch: a contact may be "cotizado".
ALTER TABLE contacts DROP CONSTRAINT contacts_state_check;
ALTER TABLE contacts ADD CONSTRAINT contacts_state_check
  CHECK (state IN ('nuevo', 'contactado', 'en_seguimiento', 'cotizado', 'cerrado_ganado', 'cerrado_perdido'));
