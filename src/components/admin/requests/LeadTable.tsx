import {
  COLUMNS,
  formatShortDate,
  isStrongScore,
  type LeadKind,
  type LeadRow,
  scorePercent,
} from '../../../lib/admin/columns.ts';
import type { DeliveryView } from '../../../lib/admin/notifications.ts';
import { DeliveryList } from '../shared/Deliveries.tsx';
import { kindTexts } from './queries.ts';

/** One kind's requests as a table that scrolls inside its own region on a phone. */
export function LeadTable({
  kind,
  rows,
  deliveries,
  onDelete,
}: {
  kind: LeadKind;
  rows: LeadRow[];
  deliveries: Record<string, DeliveryView[]>;
  onDelete(id: string): void;
}) {
  const columns = COLUMNS[kind].filter((column) => column.inTable);
  return (
    <section
      className="relative overflow-x-auto rounded-2xl bg-white ring-1 ring-brand-900/10"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
      tabIndex={0}
      aria-label={`Tabla de ${kindTexts(kind).label.toLowerCase()}`}
    >
      <table className="w-full min-w-[72rem] text-left text-sm">
        <thead className="bg-sand-100 text-xs uppercase tracking-wide text-brand-800">
          <tr>
            <th scope="col" className="px-3 py-3">
              Fecha
            </th>
            {columns.map((column) => (
              <th key={column.header} scope="col" className="px-3 py-3">
                {column.header}
              </th>
            ))}
            <th scope="col" className="px-3 py-3">
              Avisos al equipo
            </th>
            <th scope="col" className="px-3 py-3">
              <span className="sr-only">Acciones</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-brand-900/10 align-top">
              <td className="whitespace-nowrap px-3 py-3">{formatShortDate(row.created_at)}</td>
              {columns.map((column) => (
                <td key={column.header} className="max-w-64 break-words px-3 py-3">
                  {column.header === 'Puntaje' ? <ScoreBadge score={Number(row.score)} /> : column.value(row)}
                </td>
              ))}
              <td className="min-w-48 px-3 py-2">
                <DeliveryList deliveries={deliveries[row.id] ?? []} label={`Avisos de la solicitud de ${row.name}`} />
              </td>
              <td className="px-3 py-2">
                <button
                  type="button"
                  onClick={() => onDelete(row.id)}
                  className="min-h-11 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
                  aria-label={`Eliminar solicitud de ${row.name}`}
                >
                  Eliminar
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The partner's score as a percentage; destructive style below the approval threshold. */
function ScoreBadge({ score }: { score: number }) {
  const strong = isStrongScore(score);
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-bold ${strong ? 'bg-brand-100 text-brand-800' : 'bg-danger-600 text-white'}`}
    >
      {scorePercent(score)}%
    </span>
  );
}
