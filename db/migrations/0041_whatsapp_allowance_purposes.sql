-- Decision 0068: the day's allowance of automatic WhatsApp templates, one
-- per purpose. An appointment's confirmation, reminders and notices (decision
-- 0060) took from the first replies' allowance (0033): a busy day of visits
-- could leave the day's new leads without their instant first reply. Each
-- purpose now counts apart (WHATSAPP_FIRST_REPLY_DAILY_LIMIT,
-- WHATSAPP_APPOINTMENT_DAILY_LIMIT), and the administrators are told once a
-- day for each.
ALTER TABLE whatsapp_first_reply_days RENAME TO whatsapp_allowance_days;
ALTER TABLE whatsapp_allowance_days
  ADD COLUMN purpose text NOT NULL DEFAULT 'first_reply' CHECK (purpose IN ('first_reply', 'appointment'));
ALTER TABLE whatsapp_allowance_days DROP CONSTRAINT whatsapp_first_reply_days_pkey;
ALTER TABLE whatsapp_allowance_days ADD CONSTRAINT whatsapp_allowance_days_pkey PRIMARY KEY (day, purpose);
ALTER TABLE whatsapp_allowance_days RENAME CONSTRAINT whatsapp_first_reply_days_sent_check TO whatsapp_allowance_days_sent_check;
ALTER TABLE whatsapp_allowance_days ALTER COLUMN purpose DROP DEFAULT;
COMMENT ON TABLE whatsapp_allowance_days IS
  'Automatic WhatsApp templates taken per day of Mérida and purpose, and when the administrators were told the day''s ran out (decisions 0049, 0068).';
