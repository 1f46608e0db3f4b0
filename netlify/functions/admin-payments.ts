import type { Config } from '@netlify/functions';
import { formatCsvDate } from '../../src/lib/admin/columns.ts';
import { isUuid } from '../../src/lib/ids.ts';
import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  type PaymentFilter,
  paymentFilterSchema,
} from '../../src/lib/payments/panel.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { csvExport } from '../../src/server/http/csv-export.ts';
import { Answered, routedHandler } from '../../src/server/http/endpoint.ts';
import type { RequestContext } from '../../src/server/http/handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { listPayments, paymentsAfter } from '../../src/server/payments/list.ts';
import { recordManualRefund } from '../../src/server/payments/manual-refund.ts';

const EXPORT_PATH = '/api/admin/payments/export.csv';
const INVALID = 'Filtros no válidos.';
const NOT_FOUND = 'No encontramos este pago.';

function filterOf(url: URL): PaymentFilter {
  const parsed = paymentFilterSchema.safeParse(
    Object.fromEntries([...url.searchParams].filter(([, value]) => value !== '')),
  );
  if (!parsed.success) throw new Answered(jsonError(400, INVALID));
  return parsed.data;
}

// routedHandler: `endpoints` without its log line, which the default export below writes for both.
const payments = routedHandler('admin-payments', [
  {
    method: 'GET',
    path: '/api/admin/payments',
    access: 'member',
    async work({ db, url }) {
      const filter = filterOf(url);
      const cursor = decodeCursor(filter.cursor ?? null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      return json(200, await listPayments(db, filter.status, cursor));
    },
  },
  {
    // An OXXO payment's refund, given back by hand, recorded (administrators).
    method: 'POST',
    path: '/api/admin/payments/:id/devuelto',
    access: 'admin',
    async work({ db, actor, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const result = await recordManualRefund(db, params.id, actor);
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (result === 'not_waiting')
        return jsonError(409, 'Este pago no espera una devolución a mano: Stripe confirma las de tarjeta y SPEI.');
      return json(200, { id: params.id, status: 'reembolsado' });
    },
  },
]);

/** Administrators only: every payment of the filter, oldest first, on the activity log. */
const exportPayments = csvExport<{ status?: PaymentFilter['status'] }>({
  name: 'admin-payments',
  file: 'pagos.csv',
  header: [
    'Fecha',
    'Estado',
    'Forma de pago',
    'Monto (MXN)',
    'Reembolsado (MXN)',
    'Concepto',
    'Pagar antes de',
    'Pagado el',
    'Prospecto',
    'Teléfono',
    'Cita',
    'Estado de la cita',
    'Sesión de Stripe',
    'Pago de Stripe',
  ],
  filter: (url) => {
    const { status } = filterOf(url);
    return status ? { status } : {};
  },
  async read(db, filter, cursor, limit) {
    const rows = await paymentsAfter(db, filter.status, cursor, limit, 'oldest');
    const last = rows.at(-1);
    const date = (value: Date | null) => (value ? formatCsvDate(value.toISOString()) : '');
    return {
      lines: rows.map((row) => [
        date(row.created_at),
        PAYMENT_STATUS_LABELS[row.status],
        row.method ? PAYMENT_METHOD_LABELS[row.method] : '',
        String(row.amount_mxn),
        row.refunded_mxn === null ? '' : String(row.refunded_mxn),
        row.concept,
        date(row.pay_by),
        date(row.paid_at),
        row.contact_name,
        row.contact_phone,
        date(row.starts_at),
        row.appointment_status,
        row.session_id,
        row.payment_intent ?? '',
      ]),
      last: last ? { at: last.cursor_at, id: last.id } : null,
    };
  },
});

/**
 * The payments (issue #41, part 3):
 * GET /api/admin/payments?status=&cursor=: newest first, 50 a page, with the totals (members).
 * GET /api/admin/payments/export.csv?status= (administrators): formula-safe, UTF-8 with BOM.
 * POST /api/admin/payments/{id}/devuelto (administrators): an OXXO payment's refund given back by hand, recorded;
 *   409 for any payment not waiting for one.
 */
export default logged('admin-payments', async (request: Request, context: RequestContext) =>
  (new URL(request.url).pathname === EXPORT_PATH ? exportPayments : payments)(request, context),
);

export const config: Config = {
  path: ['/api/admin/payments', '/api/admin/payments/export.csv', '/api/admin/payments/:id/devuelto'],
};
