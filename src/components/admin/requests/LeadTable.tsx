import type { ReactNode } from 'react';
import {
  COLUMNS,
  type Column,
  columnLabel,
  formatShortDate,
  isStrongScore,
  type LeadKind,
  type LeadRow,
  scorePercent,
  shownValue,
} from '../../../lib/admin/columns.ts';
import type { DeliveryView } from '../../../lib/admin/notifications.ts';
import { DeliveryList } from '../shared/Deliveries.tsx';
import { kindTexts } from './queries.ts';

/**
 * One kind's requests: a table from 640 px (it scrolls inside its own region
 * when the columns need more), one card per request below (issue #26: no
 * table wider than the phone). Only one of the two is displayed; the other is
 * display:none, out of the accessibility tree.
 */
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
  const remove = (row: LeadRow) => (
    <button
      type="button"
      onClick={() => onDelete(row.id)}
      className="min-h-11 rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-600/10"
      aria-label={`Eliminar solicitud de ${row.name}`}
    >
      Eliminar
    </button>
  );
  const cell = (column: (typeof columns)[number], row: LeadRow) =>
    column.header === 'Puntaje' ? <ScoreBadge score={Number(row.score)} /> : shownValue(column, row);
  return (
    <>
      <ul className="grid gap-3 sm:hidden" aria-label={kindTexts(kind).label}>
        {rows.map((row) => (
          <li key={row.id} className="grid min-w-0 gap-2 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <p className="text-sm text-brand-800">{formatShortDate(row.created_at)}</p>
            <dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1 text-sm">
              {columns.map((column) => {
                const value = cell(column, row);
                return value === '' ? null : (
                  <div key={column.header} className="contents">
                    <dt className="text-xs font-semibold text-brand-700">{columnLabel(column)}</dt>
                    <dd className="wrap-anywhere">{value}</dd>
                  </div>
                );
              })}
            </dl>
            <DeliveryList deliveries={deliveries[row.id] ?? []} label={`Avisos de la solicitud de ${row.name}`} />
            <div className="justify-self-end">{remove(row)}</div>
          </li>
        ))}
      </ul>
      <TableOf kind={kind} rows={rows} deliveries={deliveries} columns={columns} cell={cell} remove={remove} />
    </>
  );
}

function TableOf({
  kind,
  rows,
  deliveries,
  columns,
  cell,
  remove,
}: {
  kind: LeadKind;
  rows: LeadRow[];
  deliveries: Record<string, DeliveryView[]>;
  columns: Column[];
  cell(column: Column, row: LeadRow): ReactNode;
  remove(row: LeadRow): ReactNode;
}) {
  return (
    <section
      className="relative hidden overflow-x-auto rounded-2xl bg-white ring-1 ring-brand-900/10 sm:block"
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
                {columnLabel(column)}
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
                  {cell(column, row)}
                </td>
              ))}
              <td className="min-w-48 px-3 py-2">
                <DeliveryList deliveries={deliveries[row.id] ?? []} label={`Avisos de la solicitud de ${row.name}`} />
              </td>
              <td className="px-3 py-2">{remove(row)}</td>
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
