import { appointmentKind } from '../../data/appointments.ts';
import type { Queryable } from '../db/database.ts';
import type { ChangeActor } from './change-kinds.ts';

/**
 * A paid appointment that is cancelled (issue #41): by the seller (an
 * adviser, the system), its payment is refunded; by the buyer, as the
 * kind's policy in the data says (refundUntilHours before the start: a
 * refund; later, or a kind without one: none, and the history says so; a
 * move the buyer made once that window had closed keeps it closed,
 * migration 0050).
 * Only the decision and its job here, in the cancellation's transaction
 * (appointmentChanged): the refund itself is asked of Stripe by the job
 * (src/server/payments/jobs.ts), and the payment becomes 'reembolsado' when Stripe's webhook
 * says the money went back. This module stays light (no SDK): every
 * function that cancels imports it.
 */

/** The queue's task that asks Stripe for a refund (src/server/payments/jobs.ts runs it). */
export const PAYMENT_REFUND_TASK = 'payment_refund';
/**
 * The queue's task that ends a payment still under way (src/server/payments/jobs.ts): a voucher or a transfer
 * unpaid at its deadline, or any payment of an appointment that was cancelled.
 */
export const PAYMENT_DEADLINE_TASK = 'payment_deadline';

const HOUR = 3_600_000;

export async function refundOnCancel(tx: Queryable, appointmentId: string, actor: ChangeActor): Promise<void> {
  // Its payments still under way end with it: a checkout left open, a voucher or a transfer not yet paid. Their
  // deadline's job runs now (the same key: it replaces the one waiting for the deadline), cancels them at Stripe,
  // so the buyer can no longer pay for a cancelled appointment, and expires them here.
  await tx.query(
    `SELECT graphile_worker.add_job($1, json_build_object('paymentId', id::text, 'cancelled', true),
       job_key => 'payment-deadline:' || id, max_attempts => 10)
     FROM payments WHERE appointment_id = $2 AND status IN ('abierto', 'pendiente')`,
    [PAYMENT_DEADLINE_TASK, appointmentId],
  );
  const { rows } = await tx.query<{
    id: string;
    contact_id: string;
    kind: string;
    starts_at: number;
    refund_forfeited: boolean;
  }>(
    `SELECT p.id, p.contact_id, a.kind, extract(epoch FROM a.starts_at) * 1000 AS starts_at, a.refund_forfeited
     FROM payments p JOIN appointments a ON a.id = p.appointment_id
     WHERE p.appointment_id = $1 AND p.status = 'pagado' AND p.refund_requested_at IS NULL
     FOR UPDATE OF p`,
    [appointmentId],
  );
  for (const payment of rows) {
    const kind = appointmentKind(payment.kind);
    const hoursLeft = (Number(payment.starts_at) - Date.now()) / HOUR;
    const refunds =
      actor.by !== 'buyer' ||
      (kind?.refundUntilHours != null && hoursLeft >= kind.refundUntilHours && !payment.refund_forfeited);
    if (!refunds) {
      await tx.query(
        `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Sin reembolso', $2)`,
        [
          payment.contact_id,
          kind?.refundUntilHours == null
            ? 'La persona canceló una cita pagada; este tipo de cita no se reembolsa.'
            : payment.refund_forfeited
              ? `La persona cambió la cita cuando faltaban menos de ${kind.refundUntilHours} h y luego la canceló: no se reembolsa.`
              : `La persona canceló con menos de ${kind.refundUntilHours} h de anticipación: no se reembolsa.`,
        ],
      );
      continue;
    }
    await askRefund(tx, payment, 'La cita pagada se canceló: se pidió el reembolso del pago.');
  }
}

/**
 * Asks for the refund of a payment, in the caller's transaction: marked as
 * asked, a line of the contact's history saying `why`, and the refund job
 * (payments/jobs.ts), once per payment.
 */
export async function askRefund(
  tx: Queryable,
  payment: { id: string; contact_id: string },
  why: string,
): Promise<void> {
  await tx.query(`UPDATE payments SET refund_requested_at = now(), updated_at = now() WHERE id = $1`, [payment.id]);
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'payment', 'Reembolso solicitado', $2)`,
    [payment.contact_id, why],
  );
  await tx.query(
    `SELECT graphile_worker.add_job($1, json_build_object('paymentId', $2::text), job_key => $3, max_attempts => 10)`,
    [PAYMENT_REFUND_TASK, payment.id, `payment-refund:${payment.id}`],
  );
}
