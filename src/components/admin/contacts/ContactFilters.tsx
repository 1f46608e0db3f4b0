import { type ReactNode, useEffect, useState } from 'react';
import {
  CONTACT_STATES,
  type ContactFilter,
  type ContactState,
  FORM_LABELS,
  KIND_LABELS,
  STATE_LABELS,
} from '../../../lib/admin/contacts.ts';
import { AGENDA_LABELS } from '../../../lib/admin/today.ts';
import { SearchField } from '../shared/ui.tsx';

/** A filter that is on or off ("Mis prospectos", "Sin asignar"). */
const TOGGLE_CHIP =
  'min-h-11 rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';

export type Filter = Omit<ContactFilter, 'q'>;

/** Where the person first came from, as the campaign report groups them (its rows link here). */
const TRACKED_FILTERS = [
  { name: 'source', label: 'Fuente', placeholder: 'utm_source' },
  { name: 'campaign', label: 'Campaña', placeholder: 'utm_campaign' },
  { name: 'ad', label: 'Anuncio', placeholder: 'utm_content' },
] as const;

/**
 * The search box and the filters of "Prospectos": `counts` numbers the state
 * chips (null past the server's counting cap, undefined before the first answer).
 */
export function ContactFilters({
  search,
  onSearch,
  filter,
  set,
  counts,
}: {
  search: string;
  onSearch(text: string): void;
  filter: Filter;
  set<K extends keyof Filter>(name: K, value: Filter[K] | ''): void;
  counts: Record<ContactState, number> | null | undefined;
}) {
  // The extra filters start open where there is room for them, folded on phones.
  const [moreOpen, setMoreOpen] = useState(false);
  useEffect(() => setMoreOpen(window.matchMedia('(min-width: 640px)').matches), []);
  const activeFilters = (['kind', 'form', 'source', 'campaign', 'ad', 'from', 'to'] as const).filter(
    (name) => filter[name],
  ).length;
  const allCount = counts ? Object.values(counts).reduce((sum, n) => sum + n, 0) : null;

  return (
    <div className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
      <SearchField
        label="Buscar por nombre, teléfono, correo o municipio"
        value={search}
        onChange={onSearch}
        placeholder="Ej. Mérida, 999 123 4567"
        maxLength={120}
      />
      <div className="flex flex-wrap gap-2">
        <AssignedChip assigned="me" filter={filter} set={set}>
          Mis prospectos
        </AssignedChip>
        {filter.agenda && (
          <button type="button" onClick={() => set('agenda', '')} className={`${TOGGLE_CHIP} bg-brand-900 text-white`}>
            <span className="sr-only">Quitar el filtro: </span>
            {AGENDA_LABELS[filter.agenda]} <span aria-hidden="true">✕</span>
          </button>
        )}
        <AssignedChip assigned="none" filter={filter} set={set}>
          Sin asignar
        </AssignedChip>
      </div>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Estado</legend>
        <StateChip label="Todos" count={allCount} pressed={!filter.state} onPress={() => set('state', '')} />
        {CONTACT_STATES.map((state) => (
          <StateChip
            key={state}
            label={STATE_LABELS[state]}
            count={counts === undefined ? 0 : (counts?.[state] ?? null)}
            pressed={filter.state === state}
            onPress={() => set('state', filter.state === state ? '' : state)}
          />
        ))}
      </fieldset>
      <details open={moreOpen} onToggle={(event) => setMoreOpen(event.currentTarget.open)}>
        <summary className="min-h-11 cursor-pointer py-2 font-semibold text-brand-800">
          Más filtros{activeFilters ? ` (${activeFilters})` : ''}
        </summary>
        <div className="grid gap-3 pt-2 sm:grid-cols-2 lg:grid-cols-4">
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
          {TRACKED_FILTERS.map(({ name, label, placeholder }) => (
            <InputFilter
              key={name}
              label={label}
              value={filter[name]}
              onChange={(value) => set(name, value)}
              maxLength={200}
              placeholder={placeholder}
            />
          ))}
          <InputFilter label="Desde" type="date" value={filter.from} onChange={(value) => set('from', value)} />
          <InputFilter label="Hasta" type="date" value={filter.to} onChange={(value) => set('to', value)} />
        </div>
      </details>
    </div>
  );
}

/** "Mis prospectos" or "Sin asignar": pressed, the list shows only those; pressed again, everyone's. */
function AssignedChip({
  assigned,
  filter,
  set,
  children,
}: {
  assigned: 'me' | 'none';
  filter: Filter;
  set(name: 'assigned', value: Filter['assigned'] | ''): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={filter.assigned === assigned}
      onClick={() => set('assigned', filter.assigned === assigned ? '' : assigned)}
      className={TOGGLE_CHIP}
    >
      {children}
    </button>
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

/** A filter typed in (a campaign) or picked (a date), empty meaning no filter. */
function InputFilter({
  label,
  value,
  onChange,
  ...input
}: {
  label: string;
  value: string | undefined;
  onChange(value: string): void;
  type?: 'date';
  maxLength?: number;
  placeholder?: string;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        className="field-input"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
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
