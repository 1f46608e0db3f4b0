import { formatPesos } from '../../../lib/admin/catalogue.ts';
import type { Metrics } from '../../../lib/admin/contacts.ts';
import { PanelLink } from '../shared/PanelLink.tsx';
import { Section } from '../shared/ui.tsx';

const CARD = 'block min-h-11 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

/**
 * The consultations paid online over the last 12 weeks (issue #41): paid,
 * pending, expired, refunded, the money kept, and how many of the people who
 * paid have closed a house since. Each count opens the payments it counts.
 */
export function PaymentsFigures({ payments }: { payments: Metrics['payments'] | undefined }) {
  const figures: [string, string, string | null][] = payments
    ? [
        ['Consultas pagadas', payments.paid.toLocaleString('es-MX'), 'pagado'],
        ['Cobrado', formatPesos(payments.paidMxn), 'pagado'],
        ['Pendientes (OXXO o SPEI)', payments.pending.toLocaleString('es-MX'), 'pendiente'],
        ['Vencidas sin pago', payments.expired.toLocaleString('es-MX'), 'vencido'],
        ['Reembolsadas', payments.refunded.toLocaleString('es-MX'), 'reembolsado'],
        [
          'De consulta pagada a casa vendida',
          payments.conversion === null
            ? '—'
            : `${Math.round(payments.conversion * 100)} % (${payments.won} de ${payments.paidContacts})`,
          null,
        ],
      ]
    : [];
  return (
    <Section title="Consultas pagadas (12 semanas)" titleClass="text-lg font-bold">
      {!payments ? (
        <p className="text-brand-800">Cargando…</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {figures.map(([label, value, status]) => (
            <li key={label}>
              {status ? (
                <PanelLink href={`/admin?vista=pagos&status=${status}`} className={`${CARD} hover:ring-brand-700`}>
                  <span className="block text-xs font-semibold text-brand-700">{label}</span>
                  <span className="mt-1 block text-2xl font-bold tabular-nums">{value}</span>
                </PanelLink>
              ) : (
                <div className={CARD}>
                  <span className="block text-xs font-semibold text-brand-700">{label}</span>
                  <span className="mt-1 block text-xl font-bold tabular-nums">{value}</span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
