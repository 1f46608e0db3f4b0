import { FORM_LABELS, LEAD_FORMS, type LeadForm, type Metrics } from '../../../lib/admin/contacts.ts';

const COLORS: Record<LeadForm, string> = {
  cotizacion_rapida: '#245640',
  prefiltro: '#3d7f60',
  estimacion: '#c8643b',
  socios: '#14301f',
};

const DAY_MONTH = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const weekLabel = (week: string) => DAY_MONTH.format(new Date(`${week}T00:00:00Z`));

/**
 * Leads per week for the last 12 weeks, stacked by form: plain SVG bars that
 * stretch to any width at a fixed height, labels in HTML (they never scale),
 * and the same figures as a table for screen readers.
 */
export default function LeadsChart({ weeks }: { weeks: Metrics['leadsPerWeek'] }) {
  const totals = weeks.map((week) => LEAD_FORMS.reduce((sum, form) => sum + week.counts[form], 0));
  const max = Math.max(1, ...totals);
  const width = 360;
  const height = 100;
  const bar = width / Math.max(1, weeks.length);
  return (
    <figure className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
      <figcaption className="font-semibold">Solicitudes por semana (12 semanas)</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" className="h-40 w-full" aria-hidden="true">
        {weeks.map((week, index) => {
          let top = height;
          return (
            <g key={week.week}>
              {LEAD_FORMS.map((form) => {
                const h = (week.counts[form] / max) * (height - 4);
                top -= h;
                // A white gap between stacked segments: each is seen against white, never against its neighbour.
                return h > 0 ? (
                  <rect
                    key={form}
                    x={index * bar + 2}
                    y={top}
                    width={bar - 4}
                    height={Math.max(h - 1, 0.5)}
                    fill={COLORS[form]}
                  />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <ol className="grid grid-cols-12 text-center text-[0.65rem] text-brand-800" aria-hidden="true">
        {weeks.map((week, index) => (
          <li key={week.week}>{index % 3 === 2 ? weekLabel(week.week) : ''}</li>
        ))}
      </ol>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-brand-800" aria-label="Formularios">
        {LEAD_FORMS.map((form) => (
          <li key={form} className="flex items-center gap-1.5">
            <svg viewBox="0 0 12 12" className="size-3" aria-hidden="true">
              <rect width="12" height="12" rx="2" fill={COLORS[form]} />
            </svg>
            {FORM_LABELS[form]}
          </li>
        ))}
      </ul>
      {/* A table ignores a 1 px width: the wrapper hides it for sighted visitors without widening the page. */}
      <div className="sr-only">
        <table>
          <caption>Solicitudes por semana y formulario</caption>
          <thead>
            <tr>
              <th scope="col">Semana del</th>
              {LEAD_FORMS.map((form) => (
                <th key={form} scope="col">
                  {FORM_LABELS[form]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.week}>
                <th scope="row">{weekLabel(week.week)}</th>
                {LEAD_FORMS.map((form) => (
                  <td key={form}>{week.counts[form]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
