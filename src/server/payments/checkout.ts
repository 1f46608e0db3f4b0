import { APPOINTMENTS, appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import { nameOrPhone } from '../../lib/person-name.ts';
import { placeMoment } from '../appointments/book.ts';
import { LINK_LIFETIME_AFTER_START_MS, payToken, payUrl } from '../appointments/link.ts';
import type { PaymentsConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type Stripe, stripeFor } from './stripe.ts';

/**
 * The checkout of an appointment "por pagar" (issue #41, decision 0070): the
 * server asks Stripe for a hosted Checkout Session with the amount and the
 * concept of the kind in the data (never from the browser), pointing back at
 * our appointment (client_reference_id and metadata, on the session and on
 * its payment), stores it as a payment 'abierto', and the buyer is sent to
 * its page. An open session of the appointment is reused while it has time
 * left; the session lasts as the appointment's hold, at least Stripe's 30
 * minutes (the hold is stretched to match, so a buyer paying is never left
 * without their slot). OXXO and SPEI are offered only when the appointment
 * is far enough ahead for a voucher or a transfer to arrive (the data's
 * payments.cashMinimumHours); otherwise, card only.
 */

/** The appointment cannot be paid now: why (each a Spanish answer of the endpoint). */
export class NotPayable extends Error {
  override name = 'NotPayable';
  readonly reason: 'paid' | 'pending' | 'cancelled' | 'expired' | 'free' | 'begun';
  constructor(reason: NotPayable['reason']) {
    super(reason);
    this.reason = reason;
  }
}

/** Stripe refused or did not answer: the buyer is asked to try again (503), nothing is stored. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Stripe's bounds for a session's expires_at: 30 minutes to 24 hours after its creation. */
const SESSION_MIN = 31 * MINUTE;
const SESSION_MAX = 23 * HOUR;
/** An open session with less left than this is not offered again: a new one is made. */
const REUSE_MARGIN = 10 * MINUTE;

interface PayableRow {
  id: string;
  contact_id: string;
  kind: string;
  place: string;
  status: string;
  starts_at: number;
  hold_until: number | null;
  price_mxn: number | null;
  name: string;
  phone: string;
  email: string | null;
  payment_customer: string | null;
  open_id: string | null;
  open_url: string | null;
  open_until: number | null;
  settled: string | null;
  attempts: number;
}

/** The concept of an appointment's payment, as the buyer reads it on Stripe's page and their statement. */
export function paymentConcept(kindName: string, placeName: string, start: number, timeZone: string): string {
  return `${kindName} · ${placeName} · ${placeMoment(start, timeZone)}`.slice(0, 250);
}

/** The URL of Stripe's page where the buyer pays appointment `appointmentId`, or NotPayable / ProviderUnavailable. */
export async function openCheckout(
  db: Database,
  config: PaymentsConfig,
  appointmentId: string,
  siteUrl: string,
  now: number,
): Promise<string> {
  const { rows } = await db.query<PayableRow>(
    `SELECT a.id, a.contact_id, a.kind, a.place, a.status, a.price_mxn,
            extract(epoch FROM a.starts_at) * 1000 AS starts_at, extract(epoch FROM a.hold_until) * 1000 AS hold_until,
            c.name, c.phone, a.email, c.payment_customer,
            o.session_id AS open_id, o.session_url AS open_url,
            extract(epoch FROM o.session_expires_at) * 1000 AS open_until,
            (SELECT p.status FROM payments p WHERE p.appointment_id = a.id AND p.status IN ('pendiente', 'pagado', 'reembolsado')
             ORDER BY payment_status_rank(p.status) DESC LIMIT 1) AS settled,
            (SELECT count(*)::int FROM payments p WHERE p.appointment_id = a.id) AS attempts
     FROM appointments a JOIN contacts c ON c.id = a.contact_id
     LEFT JOIN LATERAL (
       SELECT session_id, session_url, session_expires_at FROM payments p
       WHERE p.appointment_id = a.id AND p.status = 'abierto' ORDER BY p.session_expires_at DESC LIMIT 1
     ) o ON true
     WHERE a.id = $1`,
    [appointmentId],
  );
  const row = rows[0];
  const kind = row && appointmentKind(row.kind);
  const place = row && appointmentPlace(row.place);
  if (!row || !kind || !place) throw new NotPayable('cancelled');
  if (row.settled === 'pagado' || row.settled === 'reembolsado') throw new NotPayable('paid');
  if (row.settled === 'pendiente') throw new NotPayable('pending');
  if (row.price_mxn === null) throw new NotPayable('free');
  if (row.status !== 'por_pagar') throw new NotPayable(row.status === 'confirmada' ? 'paid' : 'cancelled');
  const start = Number(row.starts_at);
  if (start <= now) throw new NotPayable('begun');
  const holdUntil = Number(row.hold_until);
  // Too little of the hold left for a checkout: stretching it to Stripe's 30 minutes again and again would keep
  // the slot from everyone else; it is stretched once at most (by 21 minutes).
  if (holdUntil - now <= REUSE_MARGIN) throw new NotPayable('expired');
  if (row.open_url && Number(row.open_until) > now + REUSE_MARGIN) return row.open_url;

  const expiresAt = Math.min(Math.max(holdUntil, now + SESSION_MIN), now + SESSION_MAX, start);
  const cash = start - now >= APPOINTMENTS.payments.cashMinimumHours * HOUR;
  const concept = paymentConcept(kind.name, place.name, start, place.timeZone);
  const back = payUrl(siteUrl, payToken(row.id, start + LINK_LIFETIME_AFTER_START_MS));
  const stripe = await stripeFor(config);
  let session: Stripe.Checkout.Session;
  let customer: string | undefined;
  try {
    // The checkout it replaces, still open by its time, is expired first, so the buyer cannot pay both (Stripe
    // refuses to expire one already paid: then nothing new is opened, and its event is on its way).
    if (row.open_id && Number(row.open_until) > now) await stripe.checkout.sessions.expire(row.open_id);
    customer = cash ? (row.payment_customer ?? (await newCustomer(stripe, row))) : undefined;
    const metadata = { appointment_id: row.id, contact_id: row.contact_id };
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        currency: 'mxn',
        locale: 'es-419',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: 'mxn', unit_amount: row.price_mxn * 100, product_data: { name: concept } },
          },
        ],
        allowed_payment_method_types: cash ? ['card', 'oxxo', 'customer_balance'] : ['card'],
        ...(cash && {
          customer,
          payment_method_options: {
            oxxo: { expires_after_days: APPOINTMENTS.payments.cashDays },
            customer_balance: { funding_type: 'bank_transfer', bank_transfer: { type: 'mx_bank_transfer' } },
          },
        }),
        client_reference_id: row.id,
        metadata,
        payment_intent_data: { metadata, description: concept },
        success_url: `${back}&estado=listo`,
        cancel_url: back,
        expires_at: Math.floor(expiresAt / 1000),
      },
      // The same attempt asked twice (two tabs at once) is one session.
      { idempotencyKey: `checkout:${row.id}:${row.attempts}` },
    );
  } catch (error) {
    throw new ProviderUnavailable((error as Error).message);
  }
  if (!session.url) throw new ProviderUnavailable('the session has no url');
  // One statement: the payment, the slot held while its checkout is open, the contact's customer kept.
  await db.query(
    `WITH payment AS (
       INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept)
       VALUES ($1, $2, $3, $4, to_timestamp($5), $6, $7) ON CONFLICT (session_id) DO NOTHING RETURNING id),
     held AS (
       UPDATE appointments SET hold_until = greatest(hold_until, to_timestamp($5)), updated_at = now()
       WHERE id = $1 AND status = 'por_pagar' RETURNING id),
     customer AS (
       UPDATE contacts SET payment_customer = $8 WHERE id = $2 AND $8::text IS NOT NULL AND payment_customer IS NULL
       RETURNING id),
     -- Every customer the contact had, kept past a merge that keeps the other person's (migration 0057).
     kept AS (
       INSERT INTO contact_payment_customers (customer, contact_id) SELECT $8, $2 WHERE $8::text IS NOT NULL
       ON CONFLICT (customer) DO NOTHING)
     SELECT (SELECT count(*) FROM payment) + (SELECT count(*) FROM held) + (SELECT count(*) FROM customer) AS changed`,
    [row.id, row.contact_id, session.id, session.url, session.expires_at, row.price_mxn, concept, customer ?? null],
  );
  return session.url;
}

/** The contact's customer at Stripe (each gets a CLABE of its own for SPEI), made once and kept on the contact. */
async function newCustomer(stripe: Stripe, row: PayableRow): Promise<string> {
  const customer = await stripe.customers.create(
    {
      // What the visitor typed travels as what it means: a name, or their phone (decision 0049).
      name: nameOrPhone(row.name, row.phone),
      phone: row.phone,
      ...(row.email && { email: row.email }),
      metadata: { contact_id: row.contact_id },
    },
    { idempotencyKey: `customer:${row.contact_id}` },
  );
  return customer.id;
}
