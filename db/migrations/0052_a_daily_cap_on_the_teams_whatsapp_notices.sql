-- A review's finding: every stored lead sent the sales number a paid WhatsApp template (WHATSAPP_TO), with
-- no cap of its own: a bot rotating addresses, each under the per-address lead limit, bought one template per
-- fake lead. The notices of new leads now take a day's allowance too (WHATSAPP_NOTIFY_DAILY_LIMIT, 500 by
-- default), counted in the same table as the first replies and the appointments' templates; over it, the
-- notice fails with the reason (the lead is stored and announced by the other channels).
ALTER TABLE whatsapp_allowance_days DROP CONSTRAINT whatsapp_allowance_days_purpose_check;
ALTER TABLE whatsapp_allowance_days ADD CONSTRAINT whatsapp_allowance_days_purpose_check
  CHECK (purpose IN ('first_reply', 'appointment', 'lead_notice'));
