import { useQuery } from '@tanstack/react-query';
import { CONTACT_STATES, STATE_LABELS } from '../../../lib/admin/contacts.ts';
import { api } from '../api.ts';
import { KpiStrip } from '../contacts/KpiStrip.tsx';
import LeadsChart from '../contacts/LeadsChart.tsx';
import { type ContactsPage, useMetrics } from '../contacts/queries.ts';
import { keys } from '../keys.ts';
import { PanelLink } from '../shared/PanelLink.tsx';
import { Section } from '../shared/ui.tsx';
import { CampaignsReport } from './CampaignsReport.tsx';
import { PaymentsFigures } from './PaymentsFigures.tsx';
import { VisitsFigures } from './VisitsFigures.tsx';

/** The team's contacts per state (the list's own counts, one contact fetched). */
const useStateCounts = () =>
  useQuery({
    queryKey: keys.contactList({ counts: true }),
    queryFn: () => api<ContactsPage>('/api/admin/contacts?limit=1'),
    meta: { errorTitle: 'Error al cargar los prospectos' },
  }).data?.counts ?? null;

/**
 * "Métricas" (issue #26: they moved off the adviser's first screen): the
 * figures, the contacts per state, the visits (issue #40) and the leads per week. Each figure that
 * counts contacts opens the list it counts.
 */
export function MetricsView() {
  const metrics = useMetrics();
  const counts = useStateCounts();
  return (
    <div className="grid min-w-0 gap-6">
      <h2 className="text-xl font-bold">Métricas</h2>
      <KpiStrip metrics={metrics} />
      <Section title="Prospectos por estado" titleClass="text-lg font-bold">
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
          {CONTACT_STATES.map((state) => (
            <li key={state}>
              <PanelLink
                href={`/admin?vista=prospectos&state=${state}`}
                className="block min-h-11 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10 hover:ring-brand-700"
              >
                <span className="block text-xs font-semibold text-brand-700">{STATE_LABELS[state]}</span>
                <span className="mt-1 block text-2xl font-bold tabular-nums">
                  {counts ? counts[state].toLocaleString('es-MX') : '…'}
                </span>
              </PanelLink>
            </li>
          ))}
        </ul>
      </Section>
      <VisitsFigures visits={metrics?.visits} />
      <PaymentsFigures payments={metrics?.payments} />
      <CampaignsReport />
      {metrics && <LeadsChart weeks={metrics.leadsPerWeek} />}
    </div>
  );
}
