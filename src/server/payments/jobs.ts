import type { Task } from 'graphile-worker';
import { PAYMENT_REFUND_TASK } from '../appointments/refunds.ts';
import type { PaymentsConfig } from '../config.ts';
import { type Database, withDatabase } from '../db/database.ts';
import type { JobSource } from '../jobs/pool.ts';
import { logJson } from '../log.ts';
import {
  applyEvent,
  changePayment,
  type PaymentRow as EventPaymentRow,
  PAYMENT_DEADLINE_TASK,
  PAYMENT_EVENT_TASK,
} from './events.ts';
import { stripeFor } from './stripe.ts';

/**
 * The payments' background work (issue #41), on two runners of their own
 * while online payments are on: each webhook event applied (events.ts), one
 * at a time; and the calls to Stripe: a voucher's or a transfer's deadline (a transfer
 * has none at Stripe: its payment is cancelled there, then the payment
 * expires here and the slot is freed), and the refund of a paid appointment
 * that is cancelled (appointments/refunds.ts decides which).
 */

type PaymentRow = EventPaymentRow & { payment_intent: string | null };

type PaymentRowWithSession = PaymentRow & { session_id: string };

const COLUMNS =
  'id, appointment_id, contact_id, status, method, amount_mxn, concept, pay_by, payment_intent, session_id';

async function readPayment(db: Database, id: string): Promise<PaymentRowWithSession | null> {
  const { rows } = await db.query<PaymentRowWithSession>(`SELECT ${COLUMNS} FROM payments WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * A payment still under way ends: a voucher or a transfer still pending at
 * its deadline is cancelled at Stripe (a transfer: an OXXO voucher expires
 * there by itself) and expires here; with `cancelled` (its appointment was
 * cancelled, appointments/refunds.ts), at once and whatever its deadline, a
 * checkout still open is expired at Stripe and a voucher cancelled there too,
 * so nothing can be paid for an appointment that no longer holds its time.
 */
export async function expireAtDeadline(
  db: Database,
  config: PaymentsConfig,
  paymentId: string,
  cancelled = false,
): Promise<string> {
  const payment = await readPayment(db, paymentId);
  const underWay = payment?.status === 'pendiente' || (cancelled && payment?.status === 'abierto');
  if (!payment || !underWay) return 'settled';
  if (!cancelled && payment.pay_by && payment.pay_by.getTime() > Date.now()) return 'not yet';
  const stripe = await stripeFor(config);
  if (cancelled && payment.status === 'abierto') {
    const session = await stripe.checkout.sessions.retrieve(payment.session_id);
    // Complete is not paid: an OXXO voucher or a SPEI transfer chosen completes the checkout unpaid (its notices
    // not applied yet). Its payment is cancelled at Stripe, so the voucher cannot be paid for a cancelled visit.
    if (session.status === 'complete' && session.payment_status !== 'unpaid') return 'paid meanwhile';
    if (session.status === 'open') await stripe.checkout.sessions.expire(payment.session_id);
    const chosen = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    if (session.status === 'complete' && chosen) {
      const intent = await stripe.paymentIntents.retrieve(chosen);
      if (intent.status === 'succeeded' || intent.status === 'processing') return 'paid meanwhile';
      if (intent.status !== 'canceled') await stripe.paymentIntents.cancel(chosen);
    }
  } else if (payment.payment_intent && (cancelled || payment.method !== 'oxxo')) {
    // A transfer waits for ever unless its payment is cancelled; a voucher of a cancelled appointment is voided.
    const intent = await stripe.paymentIntents.retrieve(payment.payment_intent);
    if (intent.status === 'succeeded' || intent.status === 'processing') return 'paid meanwhile';
    if (intent.status !== 'canceled') await stripe.paymentIntents.cancel(payment.payment_intent);
  }
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<PaymentRow>(`SELECT ${COLUMNS} FROM payments WHERE id = $1 FOR UPDATE`, [
      paymentId,
    ]);
    const locked = rows[0];
    if (locked?.status !== payment.status) return 'settled';
    await changePayment(tx, locked, { status: 'vencido' });
    return 'expired';
  });
}

/**
 * A refund asked of Stripe (once: the payment's id is the idempotency key).
 * OXXO cannot be refunded through Stripe: the history tells the adviser to
 * give the money back another way.
 */
export async function refundPayment(db: Database, config: PaymentsConfig, paymentId: string): Promise<string> {
  const payment = await readPayment(db, paymentId);
  if (payment?.status !== 'pagado') return 'nothing to refund';
  if (payment.method === 'oxxo' || !payment.payment_intent) {
    await db.query(
      `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Reembolso manual', $2)`,
      [
        payment.contact_id,
        `Un pago en OXXO no se puede devolver por Stripe: devuelve $${payment.amount_mxn} MXN a la persona por transferencia.`,
      ],
    );
    return 'manual';
  }
  await (await stripeFor(config)).refunds.create(
    {
      payment_intent: payment.payment_intent,
      reason: 'requested_by_customer',
      metadata: { appointment_id: payment.appointment_id, payment_id: payment.id },
    },
    { idempotencyKey: `refund:${payment.id}` },
  );
  return 'asked';
}

export const paymentJobs: JobSource = {
  lanes(config) {
    const payments = config.payments;
    if (!payments) return [];
    const deadline: Task = async (payload) => {
      const { paymentId, cancelled } = payload as { paymentId: string; cancelled?: boolean };
      const outcome = await withDatabase((db) => expireAtDeadline(db, payments, paymentId, cancelled === true), config);
      logJson('info', { event: 'payment_deadline', paymentId, outcome });
    };
    const refund: Task = async (payload) => {
      const { paymentId } = payload as { paymentId: string };
      const outcome = await withDatabase((db) => refundPayment(db, payments, paymentId), config);
      logJson('info', { event: 'payment_refund', paymentId, outcome });
    };
    const event: Task = async (payload) => {
      const { eventId } = payload as { eventId: string };
      const outcome = await withDatabase((db) => applyEvent(db, eventId, payments.live, Date.now()), config);
      logJson('info', { event: 'payment_event', eventId, outcome });
    };
    return [
      // Stripe's events, one at a time and in the order they came: each only writes to our database, in
      // milliseconds, and a burst of them waits in the queue rather than slowing the webhook's answers
      // (issue #41's budget: with eight at once beside a burst of events, its p95 was 40 to 45 ms).
      { channel: 'payments', tasks: { [PAYMENT_EVENT_TASK]: event }, concurrency: 1 },
      // The calls to Stripe apart (each up to its 10 s timeout and retries): one that hangs never holds up an event.
      { channel: 'payments_stripe', tasks: { [PAYMENT_DEADLINE_TASK]: deadline, [PAYMENT_REFUND_TASK]: refund } },
    ];
  },
  async maintain(db, config) {
    if (config.payments) await reviveGivenUp(db);
  },
};

/**
 * The payments' part of the queue's upkeep: a job that gave up (its attempts
 * spent on an outage of ours or of Stripe) is tried again from its first
 * attempt. Nothing else ever looks at an event never applied, a deadline
 * never reached or a refund never asked: given up, the history would say
 * "Reembolso solicitado" for good, or keep a slot held for a voucher gone.
 * Each is safe to run again (an event applies once, Stripe's refund is keyed
 * by the payment). One that keeps failing is tried again at every upkeep
 * after its retries end, and says so in the log each time.
 */
export async function reviveGivenUp(db: Database): Promise<void> {
  const { rows } = await db.query<{ revived: number }>(
    `SELECT count(*)::int AS revived FROM graphile_worker.reschedule_jobs(array(
       SELECT id FROM graphile_worker.jobs
       WHERE task_identifier = ANY($1::text[]) AND attempts >= max_attempts AND locked_at IS NULL
       ORDER BY id LIMIT 500), run_at => now(), attempts => 0)`,
    [[PAYMENT_EVENT_TASK, PAYMENT_DEADLINE_TASK, PAYMENT_REFUND_TASK]],
  );
  const revived = rows[0]?.revived ?? 0;
  if (revived > 0) logJson('warn', { event: 'payment_jobs_revived', jobs: revived });
}
