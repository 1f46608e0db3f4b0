-- Issue #41 (decision 0070): the money of a paid appointment, on record.
--
-- A payment is one hosted checkout of the provider (Stripe Checkout) for one
-- appointment "por pagar": created by the server (amount from the data, never
-- from the browser), and moved only by the provider's signed webhook. Its
-- status only goes forward (rank in payment_status_rank): a late "pendiente"
-- never undoes "pagado"; "vencido" is reached only from "abierto" or
-- "pendiente", and "pagado" may still follow it (a transfer that arrives after
-- its deadline is money received, told to the adviser).
CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  appointment_id uuid NOT NULL REFERENCES appointments (id) ON DELETE CASCADE,
  contact_id uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  provider text NOT NULL DEFAULT 'stripe' CHECK (provider IN ('stripe')),
  -- The provider's checkout (cs_...), where the buyer pays, and until when it can be opened.
  session_id text NOT NULL UNIQUE,
  session_url text NOT NULL,
  session_expires_at timestamptz NOT NULL,
  -- The provider's payment (pi_...), once the buyer chose how to pay.
  payment_intent text UNIQUE,
  amount_mxn integer NOT NULL CHECK (amount_mxn > 0),
  concept text NOT NULL,
  status text NOT NULL DEFAULT 'abierto'
    CHECK (status IN ('abierto', 'pendiente', 'pagado', 'vencido', 'reembolsado')),
  method text CHECK (method IN ('tarjeta', 'oxxo', 'spei')),
  -- An OXXO voucher's or a transfer's deadline, and what the buyer needs to pay it.
  pay_by timestamptz,
  voucher jsonb,
  paid_at timestamptz,
  refund_requested_at timestamptz,
  refunded_at timestamptz,
  refunded_mxn integer CHECK (refunded_mxn > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_paid_at CHECK (status NOT IN ('pagado', 'reembolsado') OR paid_at IS NOT NULL)
);

CREATE INDEX payments_appointment_idx ON payments (appointment_id);
CREATE INDEX payments_contact_idx ON payments (contact_id);
CREATE INDEX payments_created_idx ON payments (created_at DESC);

-- Every verified webhook event, stored once as received (the webhook answers as soon as it is here) and
-- applied once by its job: a replay or a duplicate delivery finds its id here and changes nothing.
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  payload jsonb NOT NULL,
  payment_id uuid REFERENCES payments (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz
);

-- The provider's customer of a contact (Stripe gives each one a CLABE of its own for SPEI transfers).
ALTER TABLE contacts ADD COLUMN payment_customer text;

-- How far a status has gone: a payment moves only to a higher rank ("vencido" aside, see above).
CREATE FUNCTION payment_status_rank(status text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE status WHEN 'abierto' THEN 0 WHEN 'pendiente' THEN 1 WHEN 'vencido' THEN 2 WHEN 'pagado' THEN 3
                   WHEN 'reembolsado' THEN 4 END;

-- A payment's lines on the contact's history.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT string_to_array((regexp_match(pg_get_constraintdef(c.oid), '''\{([a-z_,]*)\}'''))[1], ',') INTO allowed
  FROM pg_constraint c
  WHERE c.conname = 'contact_events_kind_check' AND c.conrelid = 'contact_events'::regclass;
  IF allowed IS NULL THEN
    RAISE EXCEPTION 'contact_events_kind_check is not in its 0018 form';
  END IF;
  IF NOT 'payment' = ANY (allowed) THEN
    allowed := allowed || 'payment'::text;
  END IF;
  ALTER TABLE contact_events DROP CONSTRAINT contact_events_kind_check;
  EXECUTE format('ALTER TABLE contact_events ADD CONSTRAINT contact_events_kind_check CHECK (kind = ANY (%L::text[]))', allowed);
END $$;
