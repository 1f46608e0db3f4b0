import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatPesos } from '../../../lib/admin/catalogue.ts';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { showToast } from '../../../lib/client/toast.ts';
import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type PaymentItem,
  type PaymentStatus,
  type PaymentsPage,
} from '../../../lib/payments/panel.ts';
import { api, explain } from '../api.ts';
import { keys } from '../keys.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { card, LoadFailed, Loading } from '../shared/ui.tsx';

/** Each status's badge: colour and words (never colour alone). */
const BADGE: Record<PaymentStatus, string> = {
  abierto: 'bg-sand-200 text-brand-900',
  pendiente: 'bg-amber-100 text-amber-950',
  pagado: 'bg-emerald-100 text-emerald-950',
  vencido: 'bg-sand-200 text-brand-900 line-through',
  reembolsado: 'bg-brand-900 text-white',
};

/**
 * /admin#pagos (issue #41): every payment of the consultations, newest
 * first, by status, with what came in above the list; each with its
 * contact (a link to their page) and its appointment. Administrators
 * download it as CSV.
 */
export function PaymentsView({ canExport }: { canExport: boolean }) {
  // Métricas links here with the status it counts (?vista=pagos&status=pagado).
  const [status, setStatus] = useState(() => {
    const asked = new URLSearchParams(window.location.search).get('status') ?? '';
    return (PAYMENT_STATUSES as readonly string[]).includes(asked) ? asked : '';
  });
  const payments = useInfiniteQuery({
    queryKey: keys.payments({ status }),
    queryFn: ({ pageParam }) =>
      api<PaymentsPage>(
        `/api/admin/payments?${new URLSearchParams({ status, ...(pageParam ? { cursor: pageParam } : {}) })}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = payments.data?.pages.flatMap((page) => page.items);
  const totals = payments.data?.pages[0]?.totals;

  return (
    <div className="grid min-w-0 gap-4">
      {totals && (
        <dl className={`grid grid-cols-2 gap-3 sm:grid-cols-4 ${card}`} aria-label="Resumen de pagos">
          <div>
            <dt className="text-sm text-brand-700">Cobrado</dt>
            <dd className="text-xl font-bold tabular-nums">{formatPesos(totals.paidMxn)}</dd>
          </div>
          <div>
            <dt className="text-sm text-brand-700">Pagados</dt>
            <dd className="text-xl font-bold tabular-nums">{totals.paid}</dd>
          </div>
          <div>
            <dt className="text-sm text-brand-700">Pendientes (OXXO o SPEI)</dt>
            <dd className="text-xl font-bold tabular-nums">{totals.pending}</dd>
          </div>
          <div>
            <dt className="text-sm text-brand-700">Vencidos</dt>
            <dd className="text-xl font-bold tabular-nums">{totals.expired}</dd>
          </div>
          {totals.refunding > 0 && (
            <div className="col-span-2 sm:col-span-4">
              <dt className="text-sm text-brand-700">Por reembolsar (no cuentan en lo cobrado)</dt>
              <dd className="text-xl font-bold tabular-nums">{totals.refunding}</dd>
            </div>
          )}
        </dl>
      )}
      <div className={`flex flex-wrap items-end justify-between gap-3 ${card}`}>
        <label className="field min-w-48">
          <span className="field-label">Estado</span>
          <select className="field-input" value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Todos</option>
            {PAYMENT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {PAYMENT_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        {canExport && (
          <a
            href={`/api/admin/payments/export.csv${status ? `?status=${status}` : ''}`}
            download
            className="btn btn-outline min-h-11 px-4 py-2"
          >
            Descargar CSV
          </a>
        )}
      </div>
      {payments.isError ? (
        <LoadFailed error={payments.error} retry={() => void payments.refetch()} />
      ) : !items ? (
        <Loading text="Cargando pagos..." />
      ) : items.length === 0 ? (
        <p className={`${card} text-center text-brand-800`}>No hay pagos con este filtro.</p>
      ) : (
        <ol className="grid gap-2" aria-label="Pagos">
          {items.map((payment) => (
            <PaymentEntry key={payment.id} payment={payment} isAdmin={canExport} />
          ))}
        </ol>
      )}
      <ListFooter
        more={payments.hasNextPage}
        loading={payments.isFetchingNextPage}
        onMore={() => void payments.fetchNextPage()}
      />
    </div>
  );
}

function PaymentEntry({ payment, isAdmin }: { payment: PaymentItem; isAdmin: boolean }) {
  return (
    <li className={`grid gap-1 ${card}`}>
      <p className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-lg font-bold tabular-nums">{formatPesos(payment.amountMxn)}</span>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${BADGE[payment.status]}`}>
          {PAYMENT_STATUS_LABELS[payment.status]}
          {payment.method ? ` · ${PAYMENT_METHOD_LABELS[payment.method]}` : ''}
        </span>
      </p>
      <p className="text-sm wrap-anywhere">{payment.concept}</p>
      <p className="text-xs text-brand-700">
        Creado <time dateTime={payment.createdAt}>{formatShortDate(payment.createdAt)}</time>
        {payment.paidAt && (
          <>
            {' · '}pagado <time dateTime={payment.paidAt}>{formatShortDate(payment.paidAt)}</time>
          </>
        )}
        {payment.status === 'pendiente' && payment.payBy && (
          <>
            {' · '}vence <time dateTime={payment.payBy}>{formatShortDate(payment.payBy)}</time>
          </>
        )}
      </p>
      <a
        href={`/admin/prospecto?id=${payment.contact.id}`}
        className="inline-flex min-h-11 items-center justify-self-start font-semibold text-brand-800 underline underline-offset-4 wrap-anywhere"
      >
        {payment.contact.name}
      </a>
      {payment.refund && <RefundWaiting payment={payment} byHand={payment.refund.byHand} isAdmin={isAdmin} />}
    </li>
  );
}

/**
 * A paid payment whose refund was asked: a card's waits for Stripe's word;
 * an OXXO payment's is given back by transfer, and an administrator records
 * it here once done (POST …/devuelto), so it leaves what was collected.
 */
function RefundWaiting({ payment, byHand, isAdmin }: { payment: PaymentItem; byHand: boolean; isAdmin: boolean }) {
  const client = useQueryClient();
  const errorId = `id${useId()}`;
  const [asking, setAsking] = useState(false);
  const done = useMutation({
    mutationFn: () => api(`/api/admin/payments/${payment.id}/devuelto`, { method: 'POST', json: {} }),
    onSuccess: async () => {
      showToast({ title: `Devolución registrada: ${formatPesos(payment.amountMxn)} a ${payment.contact.name}` });
      await Promise.all(
        [['payments'], keys.metrics, keys.contact(payment.contact.id)].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
  return (
    <div className="grid gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-950">
      <p>
        <span className="font-semibold">Reembolso pendiente.</span>{' '}
        {byHand
          ? 'Stripe no devuelve pagos en OXXO: devuélvelo a la persona por transferencia.'
          : 'Stripe confirma la devolución en unos días.'}
      </p>
      {byHand && isAdmin && !asking && (
        <button
          type="button"
          className="btn btn-outline min-h-11 justify-self-start px-4 py-2"
          onClick={() => setAsking(true)}
        >
          Ya lo devolví
        </button>
      )}
      {byHand && isAdmin && asking && (
        <fieldset className="grid gap-2">
          <legend className="font-semibold">
            ¿Confirmas que le devolviste {formatPesos(payment.amountMxn)} a {payment.contact.name}?
          </legend>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn btn-primary min-h-11 px-4 py-2"
              disabled={done.isPending}
              aria-describedby={done.isError ? errorId : undefined}
              onClick={() => done.mutate()}
            >
              {done.isPending ? 'Registrando…' : 'Sí, registrar la devolución'}
            </button>
            <button
              type="button"
              className="btn btn-outline min-h-11 px-4 py-2"
              disabled={done.isPending}
              onClick={() => setAsking(false)}
            >
              Cancelar
            </button>
          </div>
        </fieldset>
      )}
      {done.isError && (
        <p id={errorId} role="alert" className="font-semibold text-danger-600">
          {explain(done.error)}
        </p>
      )}
    </div>
  );
}
