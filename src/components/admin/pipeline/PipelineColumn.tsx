import { type DragEvent, useId, useState } from 'react';
import { formatPesos } from '../../../lib/admin/catalogue.ts';
import { type ContactState, counted, STATE_LABELS } from '../../../lib/admin/contacts.ts';
import type { PipelineCard as Card, PipelineColumn as Column } from '../../../lib/admin/pipeline.ts';
import { STATE_BADGE } from '../contacts/badges.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { CARD_DRAG_TYPE, PipelineCard } from './PipelineCard.tsx';
import { type PipelineScope, useMoreOfColumn } from './queries.ts';

/**
 * One state of the board: its count and the sum of its estimated values, its
 * cards latest activity first, "Cargar más" past the first page, and a drop
 * target for a card dragged from another column.
 */
export function PipelineColumn({
  column,
  assigned,
  dragging,
  moving,
  hidden,
  onDrop,
  onDragStart,
  onDragEnd,
  onMoveMenu,
}: {
  column: Column;
  assigned: PipelineScope;
  /** The card being dragged, if any. */
  dragging: Card | null;
  /** The card whose move is being saved. */
  moving: string | null;
  /** Not the stage shown on a phone (a desktop shows every column). */
  hidden: boolean;
  onDrop(card: Card, to: ContactState): void;
  onDragStart(card: Card): void;
  onDragEnd(): void;
  onMoveMenu(card: Card): void;
}) {
  const [over, setOver] = useState(false);
  const more = useMoreOfColumn(assigned, column.state, column.nextCursor);
  const seen = new Set(column.items.map((item) => item.id));
  const items = [...column.items, ...more.items.filter((item) => !seen.has(item.id))];
  const id = `id${useId()}`;
  const droppable = dragging !== null && dragging.state !== column.state;

  const dragOver = (event: DragEvent<HTMLElement>) => {
    if (!droppable || !event.dataTransfer.types.includes(CARD_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  const drop = (event: DragEvent<HTMLElement>) => {
    setOver(false);
    if (!droppable || !dragging) return;
    event.preventDefault();
    onDrop(dragging, column.state);
  };

  return (
    <section
      aria-labelledby={id}
      data-column={column.state}
      onDragOver={dragOver}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`min-w-0 content-start gap-3 rounded-3xl bg-sand-100 p-3 ring-1 ring-brand-900/10 ${hidden ? 'hidden lg:grid' : 'grid'} ${over ? 'ring-2 ring-brand-700' : droppable ? 'outline-2 outline-offset-2 outline-brand-700/50 outline-dashed' : ''}`}
    >
      <header className="grid gap-1">
        <h3 id={id} className="flex flex-wrap items-center gap-2 font-bold">
          <span className={`rounded-full px-2.5 py-0.5 text-sm ${STATE_BADGE[column.state]}`}>
            {STATE_LABELS[column.state]}
          </span>{' '}
          <span className="tabular-nums">{column.total.toLocaleString('es-MX')}</span>
        </h3>
        <p className="text-sm text-brand-800">
          <span className="font-semibold tabular-nums">{formatPesos(column.value)}</span>{' '}
          <span>
            ({counted(column.valued, 'con valor', 'con valor')}
            {column.valued < column.total ? ` de ${column.total.toLocaleString('es-MX')}` : ''})
          </span>
        </p>
      </header>
      {items.length === 0 ? (
        <p className="rounded-2xl border-2 border-dashed border-brand-900/15 p-4 text-center text-sm text-brand-800">
          Sin prospectos en esta etapa.
        </p>
      ) : (
        <ul className="grid gap-2" aria-labelledby={id}>
          {items.map((card) => (
            <PipelineCard
              key={card.id}
              card={card}
              busy={moving === card.id}
              onDragStart={onDragStart}
              onDragEnd={onDragEnd}
              onMoveMenu={onMoveMenu}
            />
          ))}
        </ul>
      )}
      <ListFooter
        shown={items.length}
        total={column.total}
        {...more.footer}
        of={STATE_LABELS[column.state]}
        countClassName="text-xs text-brand-800"
        className="btn btn-outline min-h-11 justify-self-center px-4 py-2 text-sm"
      />
    </section>
  );
}
