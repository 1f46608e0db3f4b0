import { type FormEvent, useState } from 'react';
import { LEAD_ORIGINS } from '../../../data/lead-origins.ts';
import { captureSchema } from '../../../lib/admin/contact-work.ts';
import { NOTE_MAX } from '../../../lib/admin/contacts.ts';
import { flashToast } from '../../../lib/client/flash.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { FieldError, TextField } from '../../forms/fields.tsx';
import { explain, fieldErrors, goTo } from '../api.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { PhoneField } from '../shared/PhoneField.tsx';
import { type CaptureInput, useCapture } from './queries.ts';

/** The form of "Nuevo prospecto" (NewLeadDialog.tsx), loaded when the dialog first opens. */
export default function NewLeadForm({ onCancel }: { onCancel(): void }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const capture = useCapture();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget)) as unknown as CaptureInput;
    const parsed = captureSchema.safeParse(values);
    setFailure(null);
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    capture.mutate(values, {
      onSuccess: (answer) => {
        flashToast(
          answer.created
            ? { title: 'Prospecto agregado', description: `${parsed.data.name} quedó en Prospectos.` }
            : {
                title: 'Ese teléfono ya estaba registrado',
                description:
                  'Agregamos la captura y la nota a su historial. Su nombre no cambió; si escribiste otro, también quedó en su historial.',
              },
        );
        goTo(`/admin/prospecto?id=${answer.id}`);
      },
      onError: (error) => {
        const fields = fieldErrors(error);
        if (fields) setErrors(fields);
        setFailure(explain(error, 'No se pudo guardar el prospecto. Intenta de nuevo.'));
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Datos del nuevo prospecto">
      <TextField name="name" label="Nombre" required autoComplete="off" maxLength={120} error={errors.name} />
      <PhoneField placeholder="999 123 4567" error={errors.phone} />
      <TextField name="email" label="Correo electrónico" type="email" autoComplete="off" error={errors.email} />
      <fieldset className="field" aria-describedby={errors.origin ? 'origin-error' : undefined}>
        <legend className="field-label">
          ¿De dónde llegó?
          <span className="text-terracotta-700" aria-hidden="true">
            {' '}
            *
          </span>
        </legend>
        <div className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-3">
          {LEAD_ORIGINS.map((origin) => (
            <label
              key={origin.value}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl bg-white px-3 ring-1 ring-brand-900/15 has-checked:ring-2 has-checked:ring-brand-900"
            >
              <input type="radio" name="origin" value={origin.value} required className="accent-brand-900" />
              {origin.label}
            </label>
          ))}
        </div>
        <FieldError id="origin" error={errors.origin} />
      </fieldset>
      <div className="field">
        <label className="field-label" htmlFor="capture-note">
          Nota <span className="font-normal text-brand-700">(opcional)</span>
        </label>
        <textarea
          id="capture-note"
          name="note"
          className="field-input min-h-20"
          maxLength={NOTE_MAX}
          aria-invalid={errors.note ? true : undefined}
        />
        {errors.note && <p className="field-error">{errors.note}</p>}
      </div>
      <FormActions
        error={failure}
        onCancel={onCancel}
        submit={capture.isPending ? 'Guardando…' : 'Guardar prospecto'}
        disabled={capture.isPending}
      />
    </form>
  );
}
