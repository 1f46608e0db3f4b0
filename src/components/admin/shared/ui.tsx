import { type ReactNode, useId } from 'react';
import {
  CONTACT_STATES,
  LOST_REASON_LABELS,
  LOST_REASONS,
  type LostReason,
  STATE_LABELS,
} from '../../../lib/admin/contacts.ts';
import { explain } from '../api.ts';

/** The panel's white card. */
export const card = 'rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

/** A view whose data did not arrive: why (a 403 says so in words), and "Reintentar". */
export function LoadFailed({
  error,
  retry,
  what = 'No se pudo cargar esta vista.',
}: {
  error: unknown;
  retry(): void;
  what?: string;
}) {
  const refused = (error as { status?: number } | null)?.status === 403;
  return (
    <div role="alert" className={`grid justify-items-start gap-3 ${card}`}>
      <p>{refused ? explain(error) : what}</p>
      {!refused && (
        <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={retry}>
          Reintentar
        </button>
      )}
    </div>
  );
}

/** A button that says what it is doing while it does it ("Uniendo…"), disabled meanwhile. */
export function BusyButton({
  busy,
  busyText,
  className,
  onClick,
  label,
  children,
}: {
  busy: boolean;
  busyText: string;
  className: string;
  onClick(): void;
  /** Its accessible name, where the text alone does not say whom it acts on. */
  label?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" className={className} disabled={busy} aria-label={label} onClick={onClick}>
      {busy ? busyText : children}
    </button>
  );
}

/** "Cargando…" where the view will be. */
export function Loading({ text, page = false }: { text: string; page?: boolean }) {
  return (
    <p role="status" className={page ? 'py-16 text-center text-brand-800' : 'text-brand-800'}>
      {text}
    </p>
  );
}

/** A titled part of a view: its heading names it for assistive technology. */
export function Section({
  title,
  className = 'grid gap-3',
  titleClass = 'text-xl font-bold',
  children,
}: {
  title: ReactNode;
  className?: string;
  titleClass?: string;
  children: ReactNode;
}) {
  const id = `id${useId()}`; // an id begins with a letter (html-validate); React's begin with _
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={titleClass}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** "← Prospectos": back to a list (a 44 px target: issue #26). */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      className="inline-flex min-h-11 min-w-11 items-center justify-self-start pr-2 text-sm font-semibold text-brand-800 underline-offset-4 hover:underline"
    >
      ← {children}
    </a>
  );
}

/** The team's members as a select's options, for whom a contact is assigned to (the follow-up, a change from the list). */
export function MemberOptions({ members }: { members: readonly { id: string; name: string }[] | null }) {
  return members?.map((member) => (
    <option key={member.id} value={member.id}>
      {member.name}
    </option>
  ));
}

/** A contact's states as a select's options, in the pipeline's order (the follow-up, a change from the list). */
export function StateOptions() {
  return CONTACT_STATES.map((state) => (
    <option key={state} value={state}>
      {STATE_LABELS[state]}
    </option>
  ));
}

/** A labelled select of the panel: `onChange` is given the option picked. */
export function SelectBox<T extends string>({
  label,
  value,
  onChange,
  invalid,
  className = 'field',
  children,
}: {
  label: string;
  value: T | '';
  onChange(value: T): void;
  invalid?: boolean | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={className}>
      <span className="field-label">{label}</span>
      <select
        className="field-input"
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
        aria-invalid={invalid}
      >
        {children}
      </select>
    </label>
  );
}

/**
 * The reason a deal was lost, one select for every form that closes one
 * (the follow-up, an outcome, a change from the list). `choose`: an empty
 * first option asking for one (the form then requires it).
 */
export function LostReasonField({
  label = 'Motivo',
  value,
  onChange,
  choose = false,
  invalid,
  className = 'field',
}: {
  label?: string;
  value: LostReason | '';
  onChange(reason: LostReason | ''): void;
  choose?: boolean;
  invalid?: boolean;
  className?: string;
}) {
  return (
    <SelectBox<LostReason | ''> label={label} value={value} onChange={onChange} invalid={invalid} className={className}>
      {choose && <option value="">Elige un motivo</option>}
      {LOST_REASONS.map((reason) => (
        <option key={reason} value={reason}>
          {LOST_REASON_LABELS[reason]}
        </option>
      ))}
    </SelectBox>
  );
}

/** A list's search box ("Prospectos", "Conversaciones"): the label says what it searches. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  maxLength,
}: {
  label: string;
  value: string;
  onChange(text: string): void;
  placeholder: string;
  maxLength: number;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="search"
        className="field-input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
      />
    </label>
  );
}

/** "No encontramos este prospecto" and the way back, where a page's id finds nothing. */
export function NotFound({ title, href, back }: { title: string; href: string; back: string }) {
  return (
    <div className="grid gap-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <a href={href} className="btn btn-outline justify-self-center">
        {back}
      </a>
    </div>
  );
}
