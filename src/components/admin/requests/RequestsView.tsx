import { type KeyboardEvent, useRef, useState } from 'react';
import { LEAD_KINDS, type LeadKind } from '../../../lib/admin/columns.ts';
import { LEAD_KIND_REGISTRY } from '../../../lib/leads/kinds.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { Loading } from '../shared/ui.tsx';
import { LeadTable } from './LeadTable.tsx';
import { kindTexts, type LeadPage, useLeadActions } from './queries.ts';

/** /admin#solicitudes (administrators): every request by form, one tab per registered kind. */
export function RequestsView({ pages }: { pages: Partial<Record<LeadKind, LeadPage>> }) {
  const [active, setActive] = useState<LeadKind>(LEAD_KIND_REGISTRY[0].kind);
  const tabs = useRef<Partial<Record<LeadKind, HTMLButtonElement | null>>>({});
  const { more, remove } = useLeadActions(active);
  const page = pages[active];

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const index = LEAD_KINDS.indexOf(active);
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    let next: LeadKind | undefined;
    if (event.key in moves)
      next = LEAD_KINDS[(index + (moves[event.key] as number) + LEAD_KINDS.length) % LEAD_KINDS.length];
    if (event.key === 'Home') next = LEAD_KINDS[0];
    if (event.key === 'End') next = LEAD_KINDS.at(-1);
    if (!next) return;
    event.preventDefault();
    setActive(next);
    tabs.current[next]?.focus();
  }

  function onDelete(id: string) {
    if (window.confirm('¿Eliminar esta solicitud? Esta acción no se puede deshacer.')) remove.mutate(id);
  }

  return (
    <>
      <div
        role="tablist"
        aria-label="Tipos de solicitud"
        className="flex flex-wrap gap-2 border-b border-brand-900/10 pb-2"
      >
        {LEAD_KINDS.map((kind) => (
          <button
            key={kind}
            ref={(node) => {
              tabs.current[kind] = node;
            }}
            type="button"
            role="tab"
            id={`tab-${kind}`}
            aria-selected={active === kind}
            aria-controls={`panel-${kind}`}
            tabIndex={active === kind ? 0 : -1}
            onClick={() => setActive(kind)}
            onKeyDown={onTabKey}
            className="min-h-11 rounded-full px-4 text-sm font-semibold text-brand-800 hover:bg-brand-900/5 aria-selected:bg-brand-700 aria-selected:text-white"
          >
            {kindTexts(kind).label} ({pages[kind]?.total ?? 0})
          </button>
        ))}
      </div>

      <section role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} className="grid min-w-0 gap-4">
        <div className="flex justify-end">
          <a href={`/api/admin/${active}/export.csv`} download className="btn btn-outline min-h-11 px-4 py-2">
            Descargar CSV
          </a>
        </div>
        {!page ? (
          <Loading text="Cargando..." />
        ) : page.items.length === 0 ? (
          <p className="rounded-2xl bg-white p-8 text-center text-brand-800 ring-1 ring-brand-900/10">
            {kindTexts(active).empty}
          </p>
        ) : (
          <LeadTable kind={active} rows={page.items} deliveries={page.deliveries} onDelete={onDelete} />
        )}
        <ListFooter
          more={Boolean(page?.nextCursor)}
          loading={more.isPending}
          onMore={() => page?.nextCursor && more.mutate(page.nextCursor)}
        />
      </section>
    </>
  );
}
