import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';

/**
 * A refund given back by hand (issue #41): Stripe cannot refund an OXXO
 * payment, so when one is to be refunded (the team cancelled its
 * appointment, or it paid an appointment twice) the contact's history tells
 * the team to give the money back by transfer (jobs.ts refundPayment), and
 * the payment waits "reembolso pendiente". An administrator records it done
 * here: the payment becomes 'reembolsado' (out of what was collected), a
 * line of the contact's history and of the activity log, in one transaction.
 * Any other payment is 'not_waiting': a card's refund is Stripe's to confirm.
 */
export async function recordManualRefund(
  db: Database,
  paymentId: string,
  actor: Actor,
): Promise<'done' | 'not_found' | 'not_waiting'> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      contact_id: string;
      contact_name: string;
      amount_mxn: number;
      concept: string;
      waiting: boolean;
    }>(
      `SELECT p.contact_id, c.name AS contact_name, p.amount_mxn, p.concept,
              (p.status = 'pagado' AND p.refund_requested_at IS NOT NULL
               AND (p.method = 'oxxo' OR p.payment_intent IS NULL)) AS waiting
       FROM payments p JOIN contacts c ON c.id = p.contact_id WHERE p.id = $1 FOR UPDATE OF p`,
      [paymentId],
    );
    const payment = rows[0];
    if (!payment) return 'not_found';
    if (!payment.waiting) return 'not_waiting';
    await tx.query(
      `UPDATE payments SET status = 'reembolsado', refunded_at = now(), refunded_mxn = amount_mxn, updated_at = now()
       WHERE id = $1`,
      [paymentId],
    );
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
       VALUES ($1, $2, $3, 'payment', 'Pagado', 'Reembolsado', $4)`,
      [
        payment.contact_id,
        actor.id,
        actor.name,
        `${payment.concept} · $${payment.amount_mxn} MXN: devuelto a la persona fuera de Stripe`.slice(0, 500),
      ],
    );
    await recordActivity(tx, {
      actor,
      kind: 'payment_refunded',
      summary: `Registró la devolución de $${payment.amount_mxn} MXN a ${payment.contact_name}`,
      details: { payment: paymentId, contact: payment.contact_id },
    });
    return 'done';
  });
}
