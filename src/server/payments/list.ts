import type { PaymentFilter, PaymentItem, PaymentsPage, PaymentsTotals } from '../../lib/payments/panel.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';

/**
 * The payments of the panel (issue #41, part 3): newest first, 50 a page
 * (keyset on created_at and id), filtered by status, with the totals of the
 * whole table above the list; and the export's batches, oldest first.
 */

const PAGE = 50;

export interface PaymentRow {
  id: string;
  cursor_at: string;
  created_at: Date;
  status: PaymentItem['status'];
  method: PaymentItem['method'];
  amount_mxn: number;
  concept: string;
  pay_by: Date | null;
  paid_at: Date | null;
  refunded_mxn: number | null;
  contact_id: string;
  contact_name: string;
  contact_phone: string;
  appointment_id: string;
  starts_at: Date;
  appointment_status: string;
  session_id: string;
  payment_intent: string | null;
  refund_requested: boolean;
}

/** Up to `limit` payments of `status` (all when absent) after `cursor`, in `order`. */
export async function paymentsAfter(
  db: Queryable,
  status: PaymentFilter['status'],
  cursor: Cursor | null,
  limit: number,
  order: 'newest' | 'oldest',
): Promise<PaymentRow[]> {
  const newest = order === 'newest';
  const { rows } = await db.query<PaymentRow>(
    `SELECT p.id, ${cursorTime('p.created_at')}, p.created_at, p.status, p.method, p.amount_mxn, p.concept, p.pay_by,
            p.paid_at, p.refunded_mxn, p.session_id, p.payment_intent,
            (p.status = 'pagado' AND p.refund_requested_at IS NOT NULL) AS refund_requested,
            c.id AS contact_id, c.name AS contact_name, c.phone AS contact_phone,
            a.id AS appointment_id, a.starts_at, a.status AS appointment_status
     FROM payments p JOIN contacts c ON c.id = p.contact_id JOIN appointments a ON a.id = p.appointment_id
     WHERE ($1::text IS NULL OR p.status = $1)
       AND ($2::timestamptz IS NULL OR (p.created_at, p.id) ${newest ? '<' : '>'} ($2::timestamptz, $3::uuid))
     ORDER BY p.created_at ${newest ? 'DESC' : 'ASC'}, p.id ${newest ? 'DESC' : 'ASC'}
     LIMIT $4`,
    [status ?? null, cursor?.at ?? null, cursor?.id ?? null, limit],
  );
  return rows;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function itemOf(row: PaymentRow): PaymentItem {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    status: row.status,
    method: row.method,
    amountMxn: row.amount_mxn,
    concept: row.concept,
    payBy: iso(row.pay_by),
    paidAt: iso(row.paid_at),
    refundedMxn: row.refunded_mxn,
    refund: row.refund_requested ? { byHand: row.method === 'oxxo' || row.payment_intent === null } : null,
    contact: { id: row.contact_id, name: row.contact_name },
    appointment: { id: row.appointment_id, start: row.starts_at.toISOString(), status: row.appointment_status },
  };
}

export async function paymentsTotals(db: Queryable): Promise<PaymentsTotals> {
  const { rows } = await db.query<PaymentsTotals>(
    `SELECT coalesce(sum(amount_mxn) FILTER (WHERE status = 'pagado' AND refund_requested_at IS NULL), 0)::int AS "paidMxn",
            count(*) FILTER (WHERE status = 'pagado' AND refund_requested_at IS NULL)::int AS paid,
            count(*) FILTER (WHERE status = 'pagado' AND refund_requested_at IS NOT NULL)::int AS refunding,
            count(*) FILTER (WHERE status = 'pendiente')::int AS pending,
            count(*) FILTER (WHERE status = 'vencido')::int AS expired,
            count(*) FILTER (WHERE status = 'reembolsado')::int AS refunded
     FROM payments`,
  );
  return rows[0] as PaymentsTotals;
}

export async function listPayments(
  db: Queryable,
  status: PaymentFilter['status'],
  cursor: Cursor | null,
): Promise<PaymentsPage> {
  const [rows, totals] = await Promise.all([paymentsAfter(db, status, cursor, PAGE + 1, 'newest'), paymentsTotals(db)]);
  const items = rows.slice(0, PAGE);
  const last = rows.length > PAGE ? items.at(-1) : undefined;
  return {
    items: items.map(itemOf),
    nextCursor: last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
    totals,
  };
}
