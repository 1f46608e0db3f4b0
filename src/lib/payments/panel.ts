import * as z from 'zod/mini';
import '../forms/errors.ts'; // no library wording reaches a member
import { PAYMENT_STATUSES, type PaymentMethod, type PaymentStatus } from './words.ts';

/**
 * The payments as the panel shows them (issue #41, part 3): the list with
 * its filter, its page, the totals above it, and the words of each status
 * and method. Shared by the endpoint (admin-payments) and the view.
 */

export {
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentMethod,
  type PaymentStatus,
} from './words.ts';

export const paymentFilterSchema = z.strictObject({
  status: z.optional(z.enum(PAYMENT_STATUSES, { error: 'Estado de pago no válido.' })),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});
export type PaymentFilter = z.output<typeof paymentFilterSchema>;

export interface PaymentItem {
  id: string;
  createdAt: string;
  status: PaymentStatus;
  method: PaymentMethod | null;
  amountMxn: number;
  concept: string;
  payBy: string | null;
  paidAt: string | null;
  refundedMxn: number | null;
  /**
   * Paid, and its refund asked (the team cancelled its appointment, or it was a second payment), not yet done:
   * Stripe confirms a card's; an OXXO payment's is given back by hand (`byHand`) and recorded by an administrator.
   */
  refund: null | { byHand: boolean };
  contact: { id: string; name: string };
  appointment: { id: string; start: string; status: string };
}

export interface PaymentsTotals {
  /** Money received and kept (paid, no refund asked), in pesos. */
  paidMxn: number;
  paid: number;
  /** Paid, with a refund asked and not yet done. */
  refunding: number;
  pending: number;
  expired: number;
  refunded: number;
}

export interface PaymentsPage {
  items: PaymentItem[];
  nextCursor: string | null;
  totals: PaymentsTotals;
}
