import type { DragEvent } from 'react';
import { formatPesos } from '../../../lib/admin/catalogue.ts';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { LOST_REASON_LABELS } from '../../../lib/admin/contacts.ts';
import type { PipelineCard as Card } from '../../../lib/admin/pipeline.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';

/** The MIME type a card carries while dragged (another page's drag carries none). */
export const CARD_DRAG_TYPE = 'application/x-embudo-card';

/**
 * One deal on the board: who, the model of interest and its value, the
 * expected close day, who follows it; dragged to another column on a desktop,
 * or moved with "Mover a…" (phones, keyboard, screen readers).
 */
export function PipelineCard({
  card,
  busy,
  onDragStart,
  onDragEnd,
  onMoveMenu,
}: {
  card: Card;
  busy: boolean;
  onDragStart(card: Card): void;
  onDragEnd(): void;
  onMoveMenu(card: Card): void;
}) {
  const start = (event: DragEvent<HTMLLIElement>) => {
    event.dataTransfer.setData(CARD_DRAG_TYPE, card.id);
    event.dataTransfer.setData('text/plain', card.name);
    event.dataTransfer.effectAllowed = 'move';
    onDragStart(card);
  };
  return (
    <li
      draggable={!busy}
      onDragStart={start}
      onDragEnd={onDragEnd}
      data-card={card.id}
      aria-busy={busy || undefined}
      className="grid min-w-0 cursor-grab gap-2 rounded-2xl bg-white p-3 ring-1 ring-brand-900/10 active:cursor-grabbing aria-busy:opacity-60"
    >
      <div className="grid min-w-0 gap-0.5">
        <a
          href={`/admin/prospecto?id=${card.id}`}
          draggable={false}
          className="flex min-h-11 items-center wrap-anywhere font-bold text-brand-900 underline-offset-4 hover:underline"
        >
          {card.name}
        </a>
        <span className="text-sm text-brand-800">{formatPhone(card.phone)}</span>
      </div>
      <dl className="grid gap-1 text-sm">
        <div className="flex flex-wrap justify-between gap-x-2">
          <dt className="text-brand-700">Modelo</dt>
          <dd className="wrap-anywhere text-right">{card.modelName ?? 'Sin elegir'}</dd>
        </div>
        <div className="flex flex-wrap justify-between gap-x-2">
          <dt className="text-brand-700">Valor estimado</dt>
          <dd className="text-right font-semibold tabular-nums">
            {card.value === null ? '—' : formatPesos(card.value)}
          </dd>
        </div>
        {card.paid > 0 && (
          <div className="flex flex-wrap justify-between gap-x-2">
            <dt className="text-brand-700">
              {card.state === 'cerrado_ganado' ? 'Pagado (se abona a la casa)' : 'Pagado en consultas'}
            </dt>
            <dd className="text-right font-semibold tabular-nums">{formatPesos(card.paid)}</dd>
          </div>
        )}
        <div className="flex flex-wrap justify-between gap-x-2">
          <dt className="text-brand-700">Cierre esperado</dt>
          <dd className="text-right">{card.expectedCloseOn ? formatShortDate(card.expectedCloseOn) : '—'}</dd>
        </div>
        {card.lostReason && (
          <div className="flex flex-wrap justify-between gap-x-2">
            <dt className="text-brand-700">Motivo</dt>
            <dd className="text-right">{LOST_REASON_LABELS[card.lostReason]}</dd>
          </div>
        )}
        <div className="flex flex-wrap justify-between gap-x-2">
          <dt className="text-brand-700">Asignado a</dt>
          <dd className="wrap-anywhere text-right">{card.assignedTo?.name ?? 'Sin asignar'}</dd>
        </div>
      </dl>
      <button
        type="button"
        className="btn btn-outline min-h-11 w-full px-3 py-2 text-sm"
        disabled={busy}
        aria-haspopup="dialog"
        onClick={() => onMoveMenu(card)}
      >
        Mover a…<span className="sr-only"> (etapa de {card.name})</span>
      </button>
    </li>
  );
}
