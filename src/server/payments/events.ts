import { APPOINTMENTS } from '../../data/appointments.ts';
import { formatMxn } from '../../lib/money.ts';
import { appointmentChanged } from '../appointments/changes.ts';
import { askRefund, PAYMENT_DEADLINE_TASK } from '../appointments/refunds.ts';
import type { Database, Queryable } from '../db/database.ts';
import { scheduleReminder } from '../outbox/reminders.ts';
import type { Stripe } from './stripe.ts';

/**
 * What a verified webhook event of Stripe does (issue #41, decision 0070):
 * stored once by the webhook (its id is the key, so a replay or a duplicate
 * delivery, at once or days later, changes nothing), then applied once, in
 * one transaction, by its job or right after the webhook's answer; the payment's
 * row is locked and moved only forward (payment_status_rank, migration
 * 0043), so events arriving out of order leave the furthest state; then
 * the appointment follows:
 *
 * - paid (a card at once, an OXXO voucher or a transfer hours later): the
 *   appointment 'por_pagar' becomes 'confirmada', a line of the contact's
 *   history, the adviser told and the buyer's calendar file confirmed
 *   (appointmentChanged 'paid');
 * - a voucher or a transfer chosen: 'pendiente' until its deadline, and the
 *   slot held until then; the deadline's job (jobs.ts) expires what is
 *   still unpaid;
 * - expired unpaid (a voucher or transfer past its deadline, or a checkout
 *   left open): 'vencido', and the appointment is cancelled, its slot freed,
 *   the buyer told on WhatsApp and by e-mail (appointmentChanged
 *   'cancelled'), unless another payment of it is still under way;
 * - a transfer of less than the amount (SPEI, Stripe's
 *   `payment_intent.partially_funded`): still 'pendiente', what arrived and
 *   what is missing kept with its voucher (the buyer's page says it) and a
 *   line of the history; if the rest never comes, the line of its expiry
 *   says how much to give back;
 * - refunded: 'reembolsado', a line of the history;
 * - money left in a person's balance at Stripe (`cash_balance.funds_available`:
 *   a transfer to their CLABE with no payment waiting for it, say after its
 *   appointment was cancelled or its payment expired): a line of their
 *   history with the amount, and the contact due now, to book with it or
 *   give it back.
 *
 * Events of the other mode (test / live) and of checkouts that are not ours
 * are stored and ignored.
 */

export type PaymentStatus = 'abierto' | 'pendiente' | 'pagado' | 'vencido' | 'reembolsado';
export type PaymentMethod = 'tarjeta' | 'oxxo' | 'spei';

/** The events the endpoint is subscribed to; any other is acknowledged and ignored. */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'payment_intent.requires_action',
  'payment_intent.partially_funded',
  'charge.refunded',
  'cash_balance.funds_available',
] as const;

export { PAYMENT_DEADLINE_TASK };
/** After the deadline, how long a late notice of payment is waited for before the slot is freed. */
export const DEADLINE_GRACE_MS = 15 * 60_000;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long after a payment's deadline its slot stays held and its job waits
 * before expiring it: DEADLINE_GRACE_MS, and for an OXXO voucher or a SPEI
 * transfer until the end of the next business day too, since Stripe confirms
 * a payment made at the store "by the next business day" (a voucher paid at
 * 22:00 on its last day is told the day after) and a bank transfer "up to 1
 * business day" after it is sent (decision 0087's addendum). The day on Mexico City's clock (UTC-6 all
 * year), Monday to Friday; a payment confirmed after the appointment's start
 * finds it begun, and the history says so.
 */
export function deadlineGraceMs(method: PaymentMethod | null, payBy: number): number {
  if (method !== 'oxxo' && method !== 'spei') return DEADLINE_GRACE_MS;
  const there = new Date(payBy - 6 * HOUR);
  let next = Date.UTC(there.getUTCFullYear(), there.getUTCMonth(), there.getUTCDate() + 1);
  while (new Date(next).getUTCDay() === 0 || new Date(next).getUTCDay() === 6) next += DAY;
  const endOfNext = next + DAY - 1000 + 6 * HOUR;
  return endOfNext - payBy + DEADLINE_GRACE_MS;
}

const RANK: Record<PaymentStatus, number> = { abierto: 0, pendiente: 1, vencido: 2, pagado: 3, reembolsado: 4 };

const STATUS_WORD: Record<PaymentStatus, string> = {
  abierto: 'Pago abierto',
  pendiente: 'Pago pendiente',
  pagado: 'Pagado',
  vencido: 'Pago vencido',
  reembolsado: 'Reembolsado',
};

const METHOD_WORD: Record<PaymentMethod, string> = { tarjeta: 'tarjeta', oxxo: 'OXXO', spei: 'transferencia SPEI' };

/** A payment as the webhook's events and the deadline's job move it. */
export interface PaymentRow {
  id: string;
  appointment_id: string;
  contact_id: string;
  status: PaymentStatus;
  method: PaymentMethod | null;
  amount_mxn: number;
  concept: string;
  pay_by: Date | null;
}

/** What an event asks of a payment: a status to reach, and what it tells about it. */
export interface PaymentChange {
  status: PaymentStatus;
  method?: PaymentMethod;
  paymentIntent?: string;
  /** The deadline Stripe states (an OXXO voucher's expires_after): it wins over any other. */
  payBy?: number;
  /** Ours, from the day the buyer chose (cashDeadline): kept only while Stripe has stated none. */
  payByEstimate?: number;
  voucher?: Record<string, unknown>;
  refundedMxn?: number;
}

type Found = { by: 'session'; id: string } | { by: 'intent'; id: string; appointment: string | null };

/** The payment an event is about, and what it asks; null for an event that changes nothing of ours. */
export function readEvent(event: Stripe.Event, now: number): { found: Found; change: PaymentChange } | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') {
        return {
          found: { by: 'session', id: session.id },
          change: { status: 'pagado', method: 'tarjeta', ...(intent && { paymentIntent: intent }) },
        };
      }
      // A voucher or a transfer: paid later, or not at all by its deadline.
      return {
        found: { by: 'session', id: session.id },
        change: { status: 'pendiente', payByEstimate: cashDeadline(now), ...(intent && { paymentIntent: intent }) },
      };
    }
    case 'checkout.session.async_payment_succeeded':
      return { found: { by: 'session', id: event.data.object.id }, change: { status: 'pagado' } };
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return { found: { by: 'session', id: event.data.object.id }, change: { status: 'vencido' } };
    case 'payment_intent.requires_action':
    case 'payment_intent.partially_funded': {
      const intent = event.data.object;
      const action = intent.next_action;
      const found: Found = { by: 'intent', id: intent.id, appointment: intent.metadata?.appointment_id ?? null };
      if (action?.type === 'oxxo_display_details' && action.oxxo_display_details) {
        const oxxo = action.oxxo_display_details;
        return {
          found,
          change: {
            status: 'pendiente',
            method: 'oxxo',
            paymentIntent: intent.id,
            ...(oxxo.expires_after && { payBy: oxxo.expires_after * 1000 }),
            voucher: { number: oxxo.number, url: oxxo.hosted_voucher_url },
          },
        };
      }
      if (action?.type === 'display_bank_transfer_instructions' && action.display_bank_transfer_instructions) {
        const transfer = action.display_bank_transfer_instructions;
        const spei = transfer.financial_addresses?.find((address) => address.type === 'spei')?.spei;
        // Stripe's amounts are centavos; a transfer of less than the amount leaves the rest to transfer.
        const remaining = transfer.amount_remaining;
        const partial = remaining !== null && remaining > 0 && remaining < intent.amount;
        return {
          found,
          change: {
            status: 'pendiente',
            method: 'spei',
            paymentIntent: intent.id,
            // Stripe states no deadline for a transfer: ours, as the checkout's notice would say.
            payByEstimate: cashDeadline(now),
            voucher: {
              reference: transfer.reference,
              url: transfer.hosted_instructions_url,
              clabe: spei?.clabe,
              bank: spei?.bank_name,
              holder: spei?.account_holder_name,
              ...(partial && {
                receivedMxn: Math.round((intent.amount - remaining) / 100),
                remainingMxn: Math.round(remaining / 100),
              }),
            },
          },
        };
      }
      return null;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      if (!intent || !charge.refunded) return null;
      return {
        found: { by: 'intent', id: intent, appointment: charge.metadata?.appointment_id ?? null },
        change: { status: 'reembolsado', refundedMxn: Math.round(charge.amount_refunded / 100) },
      };
    }
    default:
      return null;
  }
}

/**
 * When a voucher or a transfer chosen now must be paid by: the end of the
 * data's payments.cashDays-th day on Mexico City's clock (when Stripe's OXXO
 * vouchers expire), at most the appointment's start (checked when applied).
 */
export function cashDeadline(now: number): number {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(now);
  const midnightUtc = Date.parse(`${day}T00:00:00Z`) + (APPOINTMENTS.payments.cashDays + 1) * 86_400_000;
  // Mexico City keeps UTC-6 all year since 2022: its midnight is 06:00 UTC.
  return midnightUtc + 6 * 3_600_000 - 1000;
}

/** The queue's task that applies one stored event (jobs.ts); the webhook also applies it right after answering. */
export const PAYMENT_EVENT_TASK = 'payment_event';

/**
 * Stores a verified event once, with its job, in one statement (what the
 * webhook waits for before its 200): false when its id was stored before (a
 * replay, a duplicate delivery). The job runs at once, and again on failure.
 */
export async function storeEvent(db: Queryable, event: Stripe.Event, payload: string): Promise<boolean> {
  const { rows } = await db.query(
    `WITH stored AS (
       INSERT INTO payment_events (event_id, type, created_at, payload) VALUES ($1, $2, to_timestamp($3), $4::jsonb)
       ON CONFLICT (event_id) DO NOTHING RETURNING event_id)
     SELECT graphile_worker.add_job($5, json_build_object('eventId', event_id), max_attempts => 25) FROM stored`,
    [event.id, event.type, event.created, payload, PAYMENT_EVENT_TASK],
  );
  return rows.length > 0;
}

/**
 * Applies a stored event once: 'duplicate' when it was applied before (its
 * job and the webhook's own try after answering both come here), 'ignored'
 * when it is not about one of ours or of the other mode (test / live).
 */
export async function applyEvent(
  db: Database,
  eventId: string,
  live: boolean,
  now: number,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  return db.transaction(async (tx) => {
    // Marked applied in this transaction: the event's row stays locked until it commits (a second try waits, then
    // finds it applied), and a rollback leaves it to be applied again.
    const stored = await tx.query<{ payload: Stripe.Event }>(
      'UPDATE payment_events SET applied_at = now() WHERE event_id = $1 AND applied_at IS NULL RETURNING payload',
      [eventId],
    );
    const row = stored.rows[0];
    if (!row) return 'duplicate';
    const event = row.payload;
    if (event.livemode !== live) return 'ignored';
    if (event.type === 'cash_balance.funds_available')
      return (await moneyInBalance(tx, event.data.object)) ? 'applied' : 'ignored';
    const read = readEvent(event, now);
    if (!read) return 'ignored';
    const payment = await lockPayment(tx, read.found);
    if (!payment) return 'ignored';
    await changePayment(tx, payment, read.change, eventId);
    return 'applied';
  });
}

async function lockPayment(tx: Queryable, found: Found): Promise<PaymentRow | null> {
  const columns = 'id, appointment_id, contact_id, status, method, amount_mxn, concept, pay_by';
  if (found.by === 'session') {
    const { rows } = await tx.query<PaymentRow>(`SELECT ${columns} FROM payments WHERE session_id = $1 FOR UPDATE`, [
      found.id,
    ]);
    return rows[0] ?? null;
  }
  // A payment's own events may come before the checkout's that names it: then the appointment's latest checkout.
  const { rows } = await tx.query<PaymentRow>(
    `SELECT ${columns} FROM payments
     WHERE payment_intent = $1
        OR ($2::uuid IS NOT NULL AND appointment_id = $2::uuid AND payment_intent IS NULL)
     ORDER BY (payment_intent = $1) DESC NULLS LAST, created_at DESC LIMIT 1 FOR UPDATE`,
    [found.id, found.appointment],
  );
  return rows[0] ?? null;
}

/**
 * Moves `payment` (locked) as `change` asks, never backwards: what the
 * change tells (the method, the voucher, the payment's id) is kept even when
 * its status is behind; then the appointment follows a new status.
 */
export async function changePayment(
  tx: Queryable,
  payment: PaymentRow,
  change: PaymentChange,
  eventId: string | null = null,
): Promise<void> {
  const forward = RANK[change.status] > RANK[payment.status];
  const status = forward ? change.status : payment.status;
  const method = change.method ?? payment.method;
  // One statement: the payment moved, the event tied to it, its line on the history and, when it is paid, its
  // appointment "por pagar" confirmed (a cancelled one stays so: see below).
  const { rows } = await tx.query<{
    pay_by: Date | null;
    appointment_status: string;
    confirmed: boolean;
  }>(
    `WITH event AS (UPDATE payment_events SET payment_id = $1 WHERE event_id = $8),
     moved AS (
       UPDATE payments p SET
         status = $2,
         method = coalesce($3, p.method),
         payment_intent = coalesce(p.payment_intent, $4),
         -- Stripe's stated deadline, else the one known, else ours; never after the appointment's start.
         -- (least() of a missing deadline is the start: no deadline stays none, never "until the visit".)
         pay_by = CASE WHEN $2 = 'pendiente'
                       THEN least(coalesce(to_timestamp($5 / 1000.0), p.pay_by, to_timestamp($15 / 1000.0)),
                                  CASE WHEN coalesce($5, $15) IS NOT NULL OR p.pay_by IS NOT NULL THEN a.starts_at END)
                       ELSE p.pay_by END,
         -- Merged: what a partial transfer told (what arrived, what is missing) stays when a notice without it comes later.
         voucher = CASE WHEN $6::jsonb IS NULL THEN p.voucher ELSE coalesce(p.voucher, '{}') || $6::jsonb END,
         paid_at = CASE WHEN $2 IN ('pagado', 'reembolsado') THEN coalesce(p.paid_at, now()) END,
         refunded_at = CASE WHEN $2 = 'reembolsado' THEN coalesce(p.refunded_at, now()) END,
         refunded_mxn = coalesce($7, p.refunded_mxn),
         updated_at = now()
       FROM appointments a WHERE p.id = $1 AND a.id = p.appointment_id
       RETURNING p.pay_by, a.status AS appointment_status),
     line AS (
       INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
       SELECT $9, 'payment', $10, $11, $12 WHERE $13::boolean),
     confirmed AS (
       UPDATE appointments SET status = 'confirmada', hold_until = NULL, updated_at = now()
       WHERE id = $14 AND status = 'por_pagar' AND $13::boolean AND $2 = 'pagado'
       RETURNING id)
     SELECT moved.pay_by, moved.appointment_status, EXISTS (SELECT 1 FROM confirmed) AS confirmed FROM moved`,
    [
      payment.id,
      status,
      change.method ?? null,
      change.paymentIntent ?? null,
      change.payBy ?? null,
      change.voucher ? JSON.stringify(change.voucher) : null,
      change.refundedMxn ?? null,
      eventId,
      payment.contact_id,
      STATUS_WORD[payment.status],
      STATUS_WORD[status],
      `${payment.concept} · $${payment.amount_mxn} MXN${method ? ` · ${METHOD_WORD[method]}` : ''}`.slice(0, 500),
      forward,
      payment.appointment_id,
      change.payByEstimate ?? null,
    ],
  );
  const row = rows[0];
  if (!row) return;
  const received = change.voucher?.receivedMxn;
  if (status === 'pendiente' && typeof received === 'number') await partlyFunded(tx, payment, received);
  // A voucher's details may come after the checkout's notice: its deadline is kept up to date either way.
  if (status === 'pendiente') await heldUntilDeadline(tx, payment, row.pay_by, method);
  if (!forward) return;
  if (row.confirmed) await appointmentChanged(tx, payment.appointment_id, { kind: 'paid' }, { by: 'buyer' });
  else if (status === 'pagado' && row.appointment_status === 'cancelada') await paidTooLate(tx, payment);
  else if (status === 'pagado') await refundIfPaidTwice(tx, payment);
  else if (status === 'vencido') await freeUnpaid(tx, payment);
}

/**
 * A voucher or a transfer: the slot stays held until its deadline and the
 * grace after it (deadlineGraceMs), when its job expires it if still unpaid.
 * Held through the grace too: a hold that ended at the deadline left the slot
 * to the next booking, which released it without a word to the buyer (their
 * job then found nothing to free, and told nobody).
 */
async function heldUntilDeadline(
  tx: Queryable,
  payment: PaymentRow,
  payBy: Date | null,
  method: PaymentMethod | null,
): Promise<void> {
  if (!payBy) return;
  const graceSeconds = deadlineGraceMs(method, payBy.getTime()) / 1000;
  await tx.query(
    `UPDATE appointments SET hold_until = greatest(hold_until, $2::timestamptz + make_interval(secs => $3)), updated_at = now()
     WHERE id = $1 AND status = 'por_pagar'`,
    [payment.appointment_id, payBy, graceSeconds],
  );
  await tx.query(
    `SELECT graphile_worker.add_job($1, json_build_object('paymentId', $2::text), run_at => $3::timestamptz + make_interval(secs => $4),
       job_key => $5, max_attempts => 10)`,
    [PAYMENT_DEADLINE_TASK, payment.id, payBy, graceSeconds, `payment-deadline:${payment.id}`],
  );
}

/** Part of a transfer arrived: the history says how much, and what is missing. */
async function partlyFunded(tx: Queryable, payment: PaymentRow, receivedMxn: number): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Pago incompleto', $2)`,
    [
      payment.contact_id,
      `${payment.concept}: llegaron $${receivedMxn} MXN de $${payment.amount_mxn} MXN por transferencia SPEI; ` +
        `faltan $${payment.amount_mxn - receivedMxn} MXN. La cita se confirma cuando llegue el resto.`,
    ],
  );
}

/**
 * Paid after its appointment was cancelled (its slot freed): the history says
 * what to do, and the contact is due now (on "Hoy", its reminder sent to the
 * adviser), so nobody forgets money that is neither used nor given back.
 */
async function paidTooLate(tx: Queryable, payment: PaymentRow): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Pagado', $2)`,
    [
      payment.contact_id,
      'El pago llegó con la cita ya cancelada: agenda otra cita con la persona o devuélvele el pago.',
    ],
  );
  await dueNow(tx, payment.contact_id);
}

/**
 * A person's balance at Stripe holds money no payment took: a transfer to
 * their CLABE after their payment expired or their appointment was
 * cancelled (its payment cancelled at Stripe), or more than was asked. Stripe
 * keeps it there; the history says how much, and the contact is due now.
 * False when the balance is no contact's of ours (or empty).
 */
async function moneyInBalance(tx: Queryable, balance: Stripe.CashBalance): Promise<boolean> {
  const centavos = balance.available?.mxn ?? 0;
  if (centavos <= 0) return false;
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail)
     SELECT contact_id, 'payment', 'Saldo a favor', $2 FROM contact_payment_customers WHERE customer = $1
     RETURNING contact_id AS id`,
    [
      balance.customer,
      `Hay ${formatMxn(Math.round(centavos / 100))} de la persona en su saldo de Stripe, sin un pago que los tome ` +
        '(una transferencia que llegó tarde o de más): agenda otra cita con la persona o devuélveselos desde Stripe.',
    ],
  );
  const contact = rows[0];
  if (!contact) return false;
  // Money of a contact closed as lost (a payment expired, its visit cancelled, then the transfer): reopened, so
  // that its reminder reaches someone (a closed contact is never due).
  await tx.query(
    `WITH reopened AS (
       UPDATE contacts SET state = 'nuevo', lost_reason = NULL, version = version + 1
       WHERE id = $1 AND state = 'cerrado_perdido' RETURNING id)
     INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
     SELECT id, 'reopened', 'cerrado_perdido', 'nuevo', 'Llegó dinero a su saldo de Stripe' FROM reopened`,
    [contact.id],
  );
  await dueNow(tx, contact.id);
  return true;
}

/** The contact is due now (on "Hoy", its reminder sent to the adviser): money to give back or to use. */
async function dueNow(tx: Queryable, contactId: string): Promise<void> {
  const { rows } = await tx.query<{ next_contact_at: Date }>(
    `UPDATE contacts SET next_contact_at = now(), version = version + 1
     WHERE id = $1 AND state NOT IN ('cerrado_ganado', 'cerrado_perdido')
       AND (next_contact_at IS NULL OR next_contact_at > now())
     RETURNING next_contact_at`,
    [contactId],
  );
  const due = rows[0];
  if (due) await scheduleReminder(tx, contactId, due.next_contact_at.toISOString());
}

/**
 * A second payment of one appointment (two checkouts of it both paid: a
 * voucher and a card, two tabs): its refund is asked for at once, as for a
 * cancelled paid appointment (appointments/refunds.ts), and the history says
 * why. The first payment stands.
 */
async function refundIfPaidTwice(tx: Queryable, payment: PaymentRow): Promise<void> {
  const { rows } = await tx.query(
    `SELECT 1 FROM payments p
     WHERE p.id = $1 AND p.refund_requested_at IS NULL
       AND EXISTS (SELECT 1 FROM payments o WHERE o.appointment_id = p.appointment_id AND o.id <> p.id
                   AND o.status = 'pagado' AND o.refund_requested_at IS NULL)`,
    [payment.id],
  );
  if (rows.length > 0) await askRefund(tx, payment, 'Llegó un segundo pago de la misma cita: se pidió su reembolso.');
}

/**
 * Unpaid past its deadline, or a checkout left to expire: the appointment is
 * cancelled and its slot freed, unless another of its payments is still
 * under way or done (the buyer opened a second checkout).
 */
export async function freeUnpaid(tx: Queryable, payment: PaymentRow): Promise<void> {
  const { rows } = await tx.query<{ id: string; received: number | null }>(
    `UPDATE appointments a SET status = 'cancelada', updated_at = now()
     WHERE a.id = $1 AND a.status = 'por_pagar'
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.appointment_id = a.id AND p.id <> $2
                       AND p.status IN ('abierto', 'pendiente', 'pagado'))
     RETURNING a.id, (SELECT (p.voucher ->> 'receivedMxn')::int FROM payments p WHERE p.id = $2) AS received`,
    [payment.appointment_id, payment.id],
  );
  const freed = rows[0];
  if (!freed) {
    // Its appointment was cancelled before (by the team, the buyer), or another payment holds it: part of a
    // transfer that arrived is still theirs to get back, and nobody else will say so.
    const voucher = await tx.query<{ received: number | null }>(
      `SELECT (voucher ->> 'receivedMxn')::int AS received FROM payments WHERE id = $1`,
      [payment.id],
    );
    const received = voucher.rows[0]?.received ?? 0;
    if (received > 0) {
      await tx.query(
        `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Devolver', $2)`,
        [
          payment.contact_id,
          `${payment.concept}: llegaron $${received} MXN de una transferencia que venció sin completarse: devuélveselos a la persona desde Stripe (su saldo).`.slice(
            0,
            500,
          ),
        ],
      );
      await dueNow(tx, payment.contact_id);
    }
    return;
  }
  // Part of a transfer that arrived stays in the buyer's balance at Stripe: whoever reads the history gives it back.
  const giveBack = freed.received
    ? `; llegaron $${freed.received} MXN de la transferencia: devuélveselos a la persona desde Stripe (su saldo)`
    : '';
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
     VALUES ($1, 'appointment', 'por_pagar', 'cancelada', $2)`,
    [
      payment.contact_id,
      `${payment.concept}: el pago no llegó a tiempo y el horario se liberó${giveBack}`.slice(0, 500),
    ],
  );
  await appointmentChanged(tx, payment.appointment_id, { kind: 'cancelled' }, { by: 'system' });
}
