-- Every customer at Stripe a contact ever had (diff review, 2026-12-01).
--
-- A contact kept one customer (`contacts.payment_customer`, the one its next checkout reuses, with its
-- CLABE for SPEI). Merging two people who had each paid in cash kept one of the two customers: a late
-- transfer to the other's CLABE (Stripe's `cash_balance.funds_available`) then matched no contact and
-- was ignored, money nobody was told about. Each customer is kept here with the contact it belongs to;
-- a merge moves the row as it moves every reference to a contact, and erasing the person deletes it.
CREATE TABLE contact_payment_customers (
  customer text PRIMARY KEY,
  contact_id uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_payment_customers_contact_id_idx ON contact_payment_customers (contact_id);

INSERT INTO contact_payment_customers (customer, contact_id)
SELECT payment_customer, id FROM contacts WHERE payment_customer IS NOT NULL;
