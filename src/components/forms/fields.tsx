import type { InputHTMLAttributes, ReactNode } from 'react';
import type { Option } from '../../lib/forms/definition.ts';
import { HONEYPOT_FIELD, MARKETING_FIELD, MARKETING_LABEL } from '../../lib/forms/fields.ts';

interface FieldBase {
  /** The form field's name, also the JSON field the endpoint expects. */
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  /** Makes ids unique when one page has the same field twice. */
  idPrefix?: string;
  /** false: neither " *" nor " (opcional)" after the label (a sign-in's two fields, plainly both needed). */
  mark?: boolean;
}

function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** " *" for a required field (the input says so to assistive tech), " (opcional)" otherwise. */
function RequiredMark({ required }: { required?: boolean | undefined }) {
  return required ? (
    <span className="text-terracotta-700" aria-hidden="true">
      {' '}
      *
    </span>
  ) : (
    <span className="font-normal text-brand-700"> (opcional)</span>
  );
}

function Label({
  id,
  label,
  required,
  mark = true,
}: {
  id: string;
  label: string;
  required?: boolean | undefined;
  mark?: boolean;
}) {
  return (
    <label htmlFor={id} className="field-label">
      {label}
      {mark && <RequiredMark required={required} />}
    </label>
  );
}

/** A field's error under it, `{id}-error` for its aria-describedby. */
export function FieldError({ id, error }: { id: string; error?: string | undefined }) {
  return (
    error && (
      <p id={`${id}-error`} className="field-error">
        {error}
      </p>
    )
  );
}

function Messages({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      <FieldError id={id} error={error} />
    </>
  );
}

type TextFieldProps = FieldBase &
  Pick<
    InputHTMLAttributes<HTMLInputElement>,
    'type' | 'autoComplete' | 'inputMode' | 'placeholder' | 'maxLength' | 'defaultValue'
  >;

export function TextField({
  name,
  label,
  error,
  hint,
  required,
  idPrefix = '',
  mark = true,
  type = 'text',
  ...input
}: TextFieldProps) {
  const id = `${idPrefix}${name}`;
  return (
    <div className="field">
      <Label id={id} label={label} required={required} mark={mark} />
      <input
        id={id}
        name={name}
        className="field-input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        type={type}
        {...input}
      />
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

export function SelectField({
  name,
  label,
  options,
  placeholder = 'Selecciona una opción',
  error,
  hint,
  required,
  defaultValue,
  idPrefix = '',
}: FieldBase & { options: readonly Option[]; placeholder?: string; defaultValue?: string }) {
  const id = `${idPrefix}${name}`;
  return (
    <div className="field">
      <Label id={id} label={label} required={required} />
      <select
        id={id}
        name={name}
        className="field-input"
        defaultValue={defaultValue ?? ''}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {defaultValue === undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Messages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A radio group in a fieldset: the legend is the question. */
export function ChoiceGroup({
  name,
  label,
  options,
  error,
  hint,
  required,
  defaultValue,
  columns = 1,
  compact = false,
  idPrefix = '',
}: FieldBase & {
  options: readonly Option[];
  defaultValue?: string;
  columns?: 1 | 2 | 3;
  /** Short answers (Sí / No): side by side on phones too. */
  compact?: boolean;
}) {
  const id = `${idPrefix}${name}`;
  const grid = compact
    ? { 1: 'grid-cols-1', 2: 'grid-cols-2', 3: 'grid-cols-3' }[columns]
    : { 1: 'grid-cols-1', 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-3' }[columns];
  return (
    <fieldset
      className="field"
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: ARIA in HTML allows radiogroup on fieldset, which then carries aria-invalid and aria-required
      role="radiogroup"
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, hint, error)}
      aria-required={required || undefined}
    >
      <legend className="field-label mb-1.5">
        {label}
        <RequiredMark required={required} />
      </legend>
      <div className={`grid gap-2 ${grid}`}>
        {options.map((option, index) => (
          <label key={option.value} className="choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              id={index === 0 ? id : undefined}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <Messages id={id} hint={hint} error={error} />
    </fieldset>
  );
}

export function SubmitButton({
  busy,
  label,
  busyLabel = 'Enviando...',
}: {
  busy: boolean;
  label: string;
  busyLabel?: string;
}) {
  return (
    <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={busy} aria-busy={busy || undefined}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** The optional, unticked marketing consent of every form, before its submit button. */
export function MarketingConsent() {
  return (
    <label className="flex min-h-11 items-center gap-3 text-sm text-brand-800">
      <input type="checkbox" name={MARKETING_FIELD} value="si" className="size-5 shrink-0 accent-brand-700" />
      {MARKETING_LABEL}
    </label>
  );
}

/** The privacy notice next to every submit button. */
export function PrivacyNote({ children }: { children?: ReactNode }) {
  return (
    <p className="text-sm text-brand-700">
      {children ?? 'Al enviar aceptas nuestro '}
      <a href="/aviso-de-privacidad" className="font-semibold text-brand-800 underline underline-offset-2">
        Aviso de privacidad
      </a>
      .
    </p>
  );
}

/** The hidden field bots fill in and people never see. */
export function Honeypot({ name = HONEYPOT_FIELD }: { name?: string }) {
  return (
    <div className="absolute -left-[9999px] h-px w-px overflow-hidden" aria-hidden="true">
      <label>
        No llenes este campo
        <input type="text" name={name} tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}
