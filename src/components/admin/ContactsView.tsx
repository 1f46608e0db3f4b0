import { useCallback, useEffect, useRef, useState } from 'react';
import { formatShortDate } from '../../lib/admin/columns.ts';
import {
  CONTACT_STATES,
  type ContactFilter,
  type ContactState,
  type ContactSummary,
  FORM_LABELS,
  KIND_LABELS,
  type Metrics,
  STATE_LABELS,
} from '../../lib/admin/contacts.ts';
import { showToast } from '../../lib/client/toast.ts';
import { apiCall, goTo } from './api.ts';
import LeadsChart from './LeadsChart.tsx';
import { todayInMerida, useDebounced } from './session.ts';

interface ContactPage {
  items: ContactSummary[];
  nextCursor: string | null;
  total: number;
  /** Null past the server's counting cap (a broad search): the chips then show no numbers. */
  counts: Record<ContactState, number> | null;
  capped: boolean;
}

export const STATE_BADGE: Record<ContactState, string> = {
  nuevo: 'bg-terracotta-700 text-white',
  contactado: 'bg-brand-100 text-brand-900',
  en_seguimiento: 'bg-brand-700 text-white',
  cerrado_ganado: 'bg-brand-900 text-white',
  cerrado_perdido: 'bg-sand-200 text-brand-900',
};

/** A filter that is on or off ("Mis prospectos", "Sin asignar"). */
const TOGGLE_CHIP =
  'min-h-11 rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';

function query(filter: ContactFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, String(value));
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** "Prospectos": the team's daily list, one card per person, with the figures that matter on top. */
/** `canExport`: administrators only (the server refuses the CSV to advisers too). */
export default function ContactsView({ canExport = true }: { canExport?: boolean }) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Omit<ContactFilter, 'q'>>({});
  const q = useDebounced(search.trim(), 250);
  const [page, setPage] = useState<ContactPage | null>(null);
  const [loading, setLoading] = useState(true);
  const [metrics, setMetrics] = useState<Metrics | null>(null);
  // The extra filters start open where there is room for them, folded on phones.
  const [moreOpen, setMoreOpen] = useState(false);
  useEffect(() => setMoreOpen(window.matchMedia('(min-width: 640px)').matches), []);
  const current: ContactFilter = { ...filter, ...(q ? { q } : {}) };
  const key = query(current);

  // Only the latest request counts: a slow answer for "ma" must not replace the one for "maria",
  // and a page of the previous filters must not be appended to the new list.
  const latest = useRef(0);
  const load = useCallback(async (path: string, append: boolean) => {
    const request = ++latest.current;
    setLoading(true);
    const result = await apiCall<ContactPage>(`/api/admin/contacts${path}`).catch(() => null);
    if (request !== latest.current) return;
    setLoading(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      showToast({ title: 'Error al cargar los prospectos', variant: 'destructive' });
      return;
    }
    setPage((previous) =>
      append && previous ? { ...result.body, items: [...previous.items, ...result.body.items] } : result.body,
    );
  }, []);

  useEffect(() => {
    void load(key, false);
  }, [key, load]);

  useEffect(() => {
    apiCall<Metrics>('/api/admin/metrics')
      .then((result) => result.ok && setMetrics(result.body))
      .catch(() => {});
  }, []);

  const set = <K extends keyof ContactFilter>(name: K, value: ContactFilter[K] | '') =>
    setFilter((previous) => {
      const next = { ...previous };
      if (value) next[name as Exclude<K, 'q'>] = value as never;
      else delete next[name as Exclude<K, 'q'>];
      return next;
    });
  const activeFilters = (['kind', 'form', 'campaign', 'from', 'to'] as const).filter((name) => filter[name]).length;
  const allCount = page?.counts ? Object.values(page.counts).reduce((sum, n) => sum + n, 0) : null;
  const today = todayInMerida();

  return (
    <div className="grid min-w-0 gap-6">
      <KpiStrip metrics={metrics} />
      {metrics && <LeadsChart weeks={metrics.leadsPerWeek} />}

      <section aria-labelledby="prospects-title" className="grid min-w-0 gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="prospects-title" className="text-xl font-bold">
            Prospectos
          </h2>
          {canExport && (
            <a href={`/api/admin/contacts/export.csv${key}`} download className="btn btn-outline min-h-11 px-4 py-2">
              Descargar CSV
            </a>
          )}
        </div>

        <div className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
          <label className="field">
            <span className="field-label">Buscar por nombre, teléfono, correo o municipio</span>
            <input
              type="search"
              className="field-input"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Ej. Mérida, 999 123 4567"
              maxLength={120}
              autoComplete="off"
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              aria-pressed={filter.assigned === 'me'}
              onClick={() => set('assigned', filter.assigned === 'me' ? '' : 'me')}
              className={TOGGLE_CHIP}
            >
              Mis prospectos
            </button>
            <button
              type="button"
              aria-pressed={filter.assigned === 'none'}
              onClick={() => set('assigned', filter.assigned === 'none' ? '' : 'none')}
              className={TOGGLE_CHIP}
            >
              Sin asignar
            </button>
          </div>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Estado</legend>
            <StateChip label="Todos" count={allCount} pressed={!filter.state} onPress={() => set('state', '')} />
            {CONTACT_STATES.map((state) => (
              <StateChip
                key={state}
                label={STATE_LABELS[state]}
                count={page ? (page.counts?.[state] ?? null) : 0}
                pressed={filter.state === state}
                onPress={() => set('state', filter.state === state ? '' : state)}
              />
            ))}
          </fieldset>
          <details open={moreOpen} onToggle={(event) => setMoreOpen(event.currentTarget.open)}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-800">
              Más filtros{activeFilters ? ` (${activeFilters})` : ''}
            </summary>
            <div className="grid gap-3 pt-2 sm:grid-cols-2 lg:grid-cols-5">
              <OptionFilter
                label="Tipo"
                value={filter.kind}
                labels={KIND_LABELS}
                onChange={(value) => set('kind', value)}
              />
              <OptionFilter
                label="Formulario"
                value={filter.form}
                labels={FORM_LABELS}
                onChange={(value) => set('form', value)}
              />
              <label className="field">
                <span className="field-label">Campaña</span>
                <input
                  className="field-input"
                  value={filter.campaign ?? ''}
                  onChange={(event) => set('campaign', event.target.value)}
                  maxLength={200}
                  placeholder="utm_campaign"
                />
              </label>
              <label className="field">
                <span className="field-label">Desde</span>
                <input
                  type="date"
                  className="field-input"
                  value={filter.from ?? ''}
                  onChange={(event) => set('from', event.target.value)}
                />
              </label>
              <label className="field">
                <span className="field-label">Hasta</span>
                <input
                  type="date"
                  className="field-input"
                  value={filter.to ?? ''}
                  onChange={(event) => set('to', event.target.value)}
                />
              </label>
            </div>
          </details>
        </div>

        <p role="status" aria-live="polite" className="text-sm text-brand-800">
          {loading
            ? 'Cargando…'
            : page
              ? `${page.capped ? 'Más de ' : ''}${page.total.toLocaleString('es-MX')} prospectos`
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
              <ContactCard key={contact.id} contact={contact} today={today} />
            ))}
          </ul>
        )}
        {page?.nextCursor && (
          <button
            type="button"
            className="btn btn-outline justify-self-center"
            disabled={loading}
            onClick={() => load(query(current, page.nextCursor ?? undefined), true)}
          >
            Cargar más
          </button>
        )}
      </section>
    </div>
  );
}

/** A select of one option set, "Todos" meaning no filter. */
function OptionFilter<T extends string>({
  label,
  value,
  labels,
  onChange,
}: {
  label: string;
  value: T | undefined;
  labels: Record<T, string>;
  onChange(value: T | ''): void;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select className="field-input" value={value ?? ''} onChange={(event) => onChange(event.target.value as T | '')}>
        <option value="">Todos</option>
        {(Object.entries(labels) as [T, string][]).map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function StateChip({
  label,
  count,
  pressed,
  onPress,
}: {
  label: string;
  count: number | null;
  pressed: boolean;
  onPress(): void;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onPress}
      className="min-h-11 rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-700 aria-pressed:text-white"
    >
      {label}
      {count !== null && <span className="tabular-nums"> ({count.toLocaleString('es-MX')})</span>}
    </button>
  );
}

function ContactCard({ contact, today }: { contact: ContactSummary; today: string }) {
  const overdue = contact.nextContactAt !== null && contact.nextContactAt < today;
  return (
    <li
      className={`min-w-0 rounded-2xl bg-white p-4 ring-1 ${contact.unattended ? 'ring-2 ring-terracotta-500' : 'ring-brand-900/10'}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <a
            href={`/admin/prospecto?id=${contact.id}`}
            className="wrap-anywhere text-lg font-bold text-brand-900 underline-offset-4 hover:underline"
          >
            {contact.name}
          </a>
          <span className="text-sm text-brand-800">
            {contact.phone}
            {contact.municipality ? ` · ${contact.municipality}` : ''}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          {contact.unattended && (
            <span className="rounded-full bg-danger-600 px-2.5 py-0.5 text-xs font-bold text-white">Sin atender</span>
          )}
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${STATE_BADGE[contact.state]}`}>
            {STATE_LABELS[contact.state]}
          </span>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-brand-700">Última actividad</dt>
          <dd>{formatShortDate(contact.lastActivityAt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Solicitudes</dt>
          <dd>
            {contact.requests} · {contact.kinds.map((kind) => KIND_LABELS[kind]).join(' y ')}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Próximo contacto</dt>
          <dd className={overdue ? 'font-bold text-danger-600' : ''}>
            {contact.nextContactAt ? `${contact.nextContactAt}${overdue ? ' (vencido)' : ''}` : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Campaña</dt>
          <dd className="wrap-anywhere">{contact.firstCampaign ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-brand-700">Asignado a</dt>
          <dd className="wrap-anywhere">{contact.assignedTo?.name ?? 'Sin asignar'}</dd>
        </div>
      </dl>
    </li>
  );
}

function KpiStrip({ metrics }: { metrics: Metrics | null }) {
  const thisWeek = metrics?.responseTime.at(-1);
  const share = metrics?.contactedWithin24h.share;
  const leads = metrics ? Object.values(metrics.byForm).reduce((sum, n) => sum + n, 0) : null;
  const cards: [string, string, string?][] = [
    ['Sin atender (más de 24 h)', metrics ? String(metrics.unattended) : '…'],
    [
      'Contactados en 24 h (4 semanas)',
      share === undefined ? '…' : share === null ? '—' : `${Math.round(share * 100)} %`,
    ],
    [
      'Tiempo de respuesta (mediana, esta semana)',
      thisWeek === undefined ? '…' : thisWeek.medianHours === null ? '—' : `${thisWeek.medianHours} h`,
    ],
    ['Próximos contactos vencidos', metrics ? String(metrics.overdue) : '…'],
    ['Solicitudes (12 semanas)', leads === null ? '…' : leads.toLocaleString('es-MX')],
  ];
  return (
    <section aria-label="Indicadores" className="grid gap-2">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {cards.map(([label, value]) => (
          <div key={label} className="rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
            <p className="text-xs font-semibold text-brand-700">{label}</p>
            <p className="mt-1 text-2xl font-bold tabular-nums">{value}</p>
          </div>
        ))}
      </div>
      {metrics && (
        <p className="text-xs text-brand-700">
          Cifras de las {formatShortDate(metrics.computedAt)}; se actualizan cada minuto.
        </p>
      )}
    </section>
  );
}
