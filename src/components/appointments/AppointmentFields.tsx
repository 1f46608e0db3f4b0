import { PICKER_WORDS as W } from '../../lib/appointments/words.ts';

/** The lead forms' limits (LIMITS, src/lib/forms/fields.ts). */
const MAX_LENGTH: Record<string, number> = { name: 120, phone: 30, email: 254 };

/**
 * Name, WhatsApp and optional e-mail of a booking, with the lead forms'
 * classes and attributes (fields.tsx), written here without their module so
 * the picker carries no zod; the server checks them with booking.ts's schema
 * and its 400 names the field (`errors`).
 */
export function AppointmentFields({ idPrefix, errors }: { idPrefix: string; errors: Record<string, string> }) {
  return (
    <fieldset className="grid gap-4">
      <legend className="mb-2 text-lg font-bold">{W.you}</legend>
      <Field idPrefix={idPrefix} name="name" label={W.name} error={errors.name} required autoComplete="name" />
      <Field
        idPrefix={idPrefix}
        name="phone"
        label={W.phone}
        hint={W.phoneHint}
        error={errors.phone}
        required
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="999 123 4567"
      />
      <Field
        idPrefix={idPrefix}
        name="email"
        label={W.email}
        hint={W.emailHint}
        error={errors.email}
        type="email"
        inputMode="email"
        autoComplete="email"
      />
    </fieldset>
  );
}

function Field({
  idPrefix,
  name,
  label,
  hint,
  error,
  required = false,
  type = 'text',
  ...input
}: {
  idPrefix: string;
  name: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  required?: boolean;
  type?: string;
  inputMode?: 'tel' | 'email';
  autoComplete: string;
  placeholder?: string;
}) {
  const id = `${idPrefix}${name}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
        {required ? (
          <span className="text-terracotta-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : (
          <span className="font-normal text-brand-700"> (opcional)</span>
        )}
      </label>
      <input
        id={id}
        name={name}
        className="field-input"
        maxLength={MAX_LENGTH[name]}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        type={type}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
