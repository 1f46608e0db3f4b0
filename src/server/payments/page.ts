import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import type { NotPayableReason, PaymentPageAnswer } from '../../lib/payments/words.ts';
import { placeTime } from '../appointment-messages/place-time.ts';
import type { Queryable } from '../db/database.ts';

/**
 * What the page /pagar shows (issue #41): the appointment of the link, its
 * latest payment as our webhook left it (never what the browser says), and
 * whether the button to pay is offered. Null when the appointment is gone.
 */
export async function paymentPage(
  db: Queryable,
  appointmentId: string,
  now: number,
): Promise<PaymentPageAnswer | null> {
  const { rows } = await db.query<{
    kind: string;
    place: string;
    status: string;
    starts_at: number;
    hold_until: number | null;
    price_mxn: number | null;
    p_status: NonNullable<PaymentPageAnswer['payment']>['status'] | null;
    method: NonNullable<PaymentPageAnswer['payment']>['method'];
    pay_by: Date | null;
    voucher: NonNullable<PaymentPageAnswer['payment']>['voucher'];
  }>(
    `SELECT a.kind, a.place, a.status, a.price_mxn, extract(epoch FROM a.starts_at) * 1000 AS starts_at,
            extract(epoch FROM a.hold_until) * 1000 AS hold_until,
            p.status AS p_status, p.method, p.pay_by, p.voucher
     FROM appointments a
     LEFT JOIN LATERAL (
       SELECT status, method, pay_by, voucher FROM payments p WHERE p.appointment_id = a.id
       ORDER BY (p.status = 'pagado' AND p.refund_requested_at IS NULL) DESC, payment_status_rank(p.status) DESC,
      p.created_at DESC LIMIT 1
     ) p ON true
     WHERE a.id = $1`,
    [appointmentId],
  );
  const row = rows[0];
  const kind = row && appointmentKind(row.kind);
  const place = row && appointmentPlace(row.place);
  if (!row || !kind || !place || row.price_mxn === null) return null;
  const start = Number(row.starts_at);
  const holdUntil = row.hold_until === null ? null : Number(row.hold_until);
  return {
    kind: kind.name,
    place: place.name,
    when: placeTime(start, place),
    priceMxn: row.price_mxn,
    appointmentStatus: row.status,
    holdUntil: row.status === 'por_pagar' && holdUntil !== null ? new Date(holdUntil).toISOString() : null,
    timeZone: place.timeZone,
    audience: kind.audience,
    payment: row.p_status
      ? {
          status: row.p_status,
          method: row.method,
          payBy: row.pay_by ? row.pay_by.toISOString() : null,
          voucher: row.voucher,
        }
      : null,
    notPayable: notPayable(row.status, row.p_status, start, holdUntil, now),
  };
}

function notPayable(
  status: string,
  payment: string | null,
  start: number,
  holdUntil: number | null,
  now: number,
): NotPayableReason | null {
  if (payment === 'pagado' || payment === 'reembolsado' || status === 'confirmada') return 'paid';
  // Cancelled before its voucher or transfer was paid: no reference to pay is shown any more (it is voided at Stripe).
  if (status !== 'por_pagar') return 'cancelled';
  if (payment === 'pendiente') return 'pending';
  if (start <= now) return 'begun';
  if (holdUntil === null || holdUntil <= now) return 'expired';
  return null;
}
