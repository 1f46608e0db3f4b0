import { formatShortDate } from '../../../lib/admin/columns.ts';
import type { Metrics } from '../../../lib/admin/contacts.ts';
import { PanelLink } from '../shared/PanelLink.tsx';

const CARD = 'block rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

/** The figures of "Métricas"; "…" until they arrive. A figure that counts contacts opens the list it counts. */
export function KpiStrip({ metrics }: { metrics: Metrics | null }) {
  const thisWeek = metrics?.responseTime.at(-1);
  const share = metrics?.contactedWithin24h.share;
  const leads = metrics ? Object.values(metrics.byForm).reduce((sum, n) => sum + n, 0) : null;
  const cards: [string, string, string?][] = [
    [
      'Sin atender (más de 24 h)',
      metrics ? metrics.unattended.toLocaleString('es-MX') : '…',
      '/admin?vista=prospectos&agenda=sin_atender',
    ],
    [
      'Contactados en 24 h (4 semanas)',
      share === undefined ? '…' : share === null ? '—' : `${Math.round(share * 100)} %`,
    ],
    [
      'Tiempo de respuesta (mediana, esta semana)',
      thisWeek === undefined ? '…' : thisWeek.medianHours === null ? '—' : `${thisWeek.medianHours} h`,
    ],
    [
      'Contactos vencidos del equipo',
      metrics ? metrics.overdue.toLocaleString('es-MX') : '…',
      '/admin?vista=prospectos&agenda=vencidos',
    ],
    ['Solicitudes (12 semanas)', leads === null ? '…' : leads.toLocaleString('es-MX')],
  ];
  return (
    <section aria-label="Indicadores" className="grid gap-2">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {cards.map(([label, value, href]) => {
          const body = (
            <>
              <span className="block text-xs font-semibold text-brand-700">{label}</span>
              <span className="mt-1 block text-2xl font-bold tabular-nums">{value}</span>
            </>
          );
          return href ? (
            <PanelLink key={label} href={href} className={`${CARD} hover:ring-brand-700`}>
              {body}
            </PanelLink>
          ) : (
            <div key={label} className={CARD}>
              {body}
            </div>
          );
        })}
      </div>
      {metrics && <p className="text-xs text-brand-700">Cifras al {formatShortDate(metrics.computedAt)}</p>}
    </section>
  );
}
