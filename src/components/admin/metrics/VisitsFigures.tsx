import type { ReactNode } from 'react';
import { APPOINTMENT_SOURCE_LABELS, type Metrics, type VisitFigures } from '../../../lib/admin/contacts.ts';
import { Section } from '../shared/ui.tsx';

const CARD = 'block rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

/** "40 %", or "—" with nothing marked. */
const rate = (value: number | null): string => (value === null ? '—' : `${Math.round(value * 100)} %`);
const count = (value: number): string => value.toLocaleString('es-MX');

const COLUMNS: [keyof VisitFigures, string, (figures: VisitFigures) => string][] = [
  ['booked', 'Agendadas', (figures) => count(figures.booked)],
  ['held', 'Asistieron', (figures) => count(figures.held)],
  ['noShows', 'No asistieron', (figures) => count(figures.noShows)],
  ['noShowRate', 'Inasistencia', (figures) => rate(figures.noShowRate)],
  ['pending', 'Por marcar', (figures) => count(figures.pending)],
];

/** One table of visits: a row per adviser or source, a column per figure; it scrolls by itself on a phone. */
function VisitsTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string;
  rows: { key: string; label: ReactNode; figures: VisitFigures }[];
}) {
  return (
    <section
      className="overflow-x-auto rounded-2xl bg-white ring-1 ring-brand-900/10"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
      tabIndex={0}
      aria-label={caption}
    >
      <table className="w-full min-w-[38rem] text-left text-sm">
        <caption className="px-4 pt-3 text-left font-bold">{caption}</caption>
        <thead className="text-xs text-brand-800">
          <tr>
            <th scope="col" className="px-4 py-2">
              {head}
            </th>
            {COLUMNS.map(([key, label]) => (
              <th key={key} scope="col" className="px-3 py-2 text-right">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-brand-900/10">
              <th scope="row" className="min-w-36 px-4 py-2 font-semibold break-words">
                {row.label}
              </th>
              {COLUMNS.map(([key, , shown]) => (
                <td key={key} className="px-3 py-2 text-right tabular-nums">
                  {shown(row.figures)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Visits and consultations of the last 12 weeks (issue #40, decision 0062):
 * the team's figures, then by adviser and by source (sitio, panel,
 * WhatsApp). Agendadas counts the bookings made in the period; the rest, the
 * appointments whose time fell in it, as the advisers marked them; the
 * no-show rate is of those marked.
 */
export function VisitsFigures({ visits }: { visits: Metrics['visits'] | undefined }) {
  const totals = visits?.totals;
  const empty = totals && totals.booked + totals.held + totals.noShows + totals.pending === 0;
  return (
    <Section title="Visitas y asesorías (12 semanas)" titleClass="text-lg font-bold">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {COLUMNS.map(([key, label, shown]) => (
          <div key={key} className={CARD}>
            <span className="block text-xs font-semibold text-brand-700">
              {key === 'noShowRate' ? 'Tasa de inasistencia' : label}
            </span>
            <span className="mt-1 block text-2xl font-bold tabular-nums">{totals ? shown(totals) : '…'}</span>
          </div>
        ))}
      </div>
      {empty ? (
        <p className="rounded-2xl bg-white p-6 text-center text-brand-800 ring-1 ring-brand-900/10">
          Aún no hay citas en estas 12 semanas. Cuando se agenden, aquí verás cuántas se realizaron y cuántas no.
        </p>
      ) : (
        visits && (
          <div className="grid gap-3">
            <VisitsTable
              caption="Por asesor"
              head="Asesor"
              rows={visits.byAdviser.map((row) => ({ key: row.memberId ?? 'none', label: row.name, figures: row }))}
            />
            <VisitsTable
              caption="Por origen"
              head="Origen"
              rows={visits.bySource.map((row) => ({
                key: row.source,
                label: APPOINTMENT_SOURCE_LABELS[row.source],
                figures: row,
              }))}
            />
          </div>
        )
      )}
    </Section>
  );
}
