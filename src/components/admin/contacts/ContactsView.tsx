import { lazy, Suspense, useEffect, useState } from 'react';
import { type ContactFilter, contactFilterSchema } from '../../../lib/admin/contacts.ts';
import { useAssignable } from '../contact/page-queries.ts';
import { todayInMerida, useDebounced } from '../session.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { setUrlParams, useKeptScroll, useUrlParams } from '../shared/url.ts';
import { ContactCard } from './ContactCard.tsx';
import { ContactFilters, type Filter } from './ContactFilters.tsx';
import { NewLeadButton } from './NewLeadDialog.tsx';
import { contactsQuery, useContacts } from './queries.ts';

/** Loaded with the first selection: advisers never load it. */
const BulkBar = lazy(() => import('./BulkBar.tsx'));

const FILTER_NAMES = ['state', 'kind', 'form', 'source', 'campaign', 'ad', 'from', 'to', 'assigned', 'agenda'] as const;

/** The filters in the address, each checked on its own: one that does not parse is ignored, the others apply. */
export function filterOf(params: URLSearchParams): Filter {
  const filter: Record<string, unknown> = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (!value) continue;
    const parsed = contactFilterSchema.safeParse({ [name]: value });
    if (parsed.success) filter[name] = (parsed.data as Record<string, unknown>)[name];
  }
  return filter as Filter;
}

/**
 * "Prospectos": the team's list, one card per person. The search, the chips
 * and the filters live in the address (issue #26), so Back and the contact
 * page's "← Prospectos" come back to the same list at the same place.
 * `canExport`: administrators only (the server refuses the CSV to advisers too);
 * `canSelect`: administrators select cards and change them together (BulkBar).
 */
export function ContactsView({ canExport = true, canSelect = false }: { canExport?: boolean; canSelect?: boolean }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const members = useAssignable(canSelect);
  const select = (id: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const params = useUrlParams();
  const [search, setSearch] = useState(() => params.get('q') ?? '');
  const filter = filterOf(params);
  const q = useDebounced(search.trim(), 250);
  useEffect(() => {
    if ((new URLSearchParams(window.location.search).get('q') ?? '') !== q) setUrlParams({ q });
  }, [q]);
  const current: ContactFilter = { ...filter, ...(q ? { q } : {}) };
  const { page, loading, more } = useContacts(current);
  useKeptScroll(page !== null);
  const key = contactsQuery(current);
  const today = todayInMerida();

  const set = <K extends keyof Filter>(name: K, value: Filter[K] | '') =>
    setUrlParams({ [name]: value ? String(value) : null });

  return (
    <section aria-labelledby="prospects-title" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="prospects-title" className="text-xl font-bold">
          Prospectos
        </h2>
        <div className="flex flex-wrap gap-2">
          <NewLeadButton />
          {canExport && (
            <a href={`/api/admin/contacts/export.csv${key}`} download className="btn btn-outline min-h-11 px-4 py-2">
              Descargar CSV
            </a>
          )}
        </div>
      </div>

      <ContactFilters search={search} onSearch={setSearch} filter={filter} set={set} counts={page?.counts} />

      <p role="status" aria-live="polite" className="text-sm text-brand-800">
        {loading
          ? 'Cargando…'
          : page
            ? `${page.capped ? 'Más de ' : ''}${page.total.toLocaleString('es-MX')} ${page.total === 1 && !page.capped ? 'prospecto' : 'prospectos'}`
            : ''}
      </p>

      {page && page.items.length === 0 && !loading ? (
        <p className="rounded-2xl bg-white p-8 text-center text-brand-800 ring-1 ring-brand-900/10">
          {Object.keys(current).length
            ? 'Ningún prospecto coincide con la búsqueda o los filtros.'
            : 'Aún no hay prospectos.'}
        </p>
      ) : (
        <ul className="grid gap-3" aria-label="Prospectos">
          {page?.items.map((contact) => (
            <ContactCard
              key={contact.id}
              contact={contact}
              today={today}
              {...(canSelect
                ? { selected: selected.has(contact.id), onSelect: (on: boolean) => select(contact.id, on) }
                : {})}
            />
          ))}
        </ul>
      )}
      {selected.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar ids={[...selected]} members={members} onDone={() => setSelected(new Set())} />
        </Suspense>
      )}
      <ListFooter more={Boolean(page?.nextCursor)} loading={loading} onMore={more} />
    </section>
  );
}
