import { type FormEvent, useState } from 'react';
import { contactEditSchema, MERGE_NOT_YOURS, type OtherContact } from '../../../lib/admin/contact-work.ts';
import { type ContactDetail, counted, STATE_LABELS } from '../../../lib/admin/contacts.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';
import { TextField } from '../../forms/fields.tsx';
import { explain, fieldErrors } from '../api.ts';
import { FormActions, FormError } from '../shared/FormActions.tsx';
import { PhoneField } from '../shared/PhoneField.tsx';
import { BusyButton } from '../shared/ui.tsx';
import { otherContactOf, useEditContact, useMerge } from './page-queries.ts';

interface Values {
  name: string;
  phone: string;
  email: string;
}

/** The form of "Editar datos" (EditContact.tsx), loaded when the dialog first opens. */
export default function EditForm({
  contact,
  onDone,
  onStale,
}: {
  contact: ContactDetail;
  onDone(): void;
  onStale(): void;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [collision, setCollision] = useState<{ other: OtherContact; values: Values } | null>(null);
  const edit = useEditContact(contact.id);
  const merge = useMerge(contact.id);

  function refused(error: unknown) {
    if ((error as { status?: number }).status === 409 && !otherContactOf(error)) return onStale();
    const fields = fieldErrors(error);
    if (fields) setErrors(fields);
    setFailure(explain(error, 'No se pudieron guardar los datos. Intenta de nuevo.'));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget)) as unknown as Values;
    const parsed = contactEditSchema.safeParse({ ...values, version: contact.version });
    setFailure(null);
    setCollision(null);
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    edit.mutate(parsed.data, {
      onSuccess: () => {
        showToast({ title: 'Datos actualizados' });
        onDone();
      },
      onError: (error) => {
        const other = otherContactOf(error);
        if (other) return setCollision({ other, values });
        refused(error);
      },
    });
  }

  function joinThem() {
    if (!collision) return;
    const parsed = contactEditSchema.safeParse({ ...collision.values, version: contact.version });
    if (!parsed.success) return;
    merge.mutate(
      { ...parsed.data, from: collision.other.id },
      {
        onSuccess: () => {
          showToast({ title: 'Prospectos unidos', description: `Todo lo de ${collision.other.name} está ahora aquí.` });
          onDone();
        },
        onError: (error) => {
          setCollision(null);
          refused(error);
          if ((error as { status?: number }).status === 403) setFailure(MERGE_NOT_YOURS);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Datos del prospecto">
      <TextField
        name="name"
        label="Nombre"
        required
        autoComplete="off"
        maxLength={120}
        defaultValue={contact.name}
        error={errors.name}
      />
      <PhoneField defaultValue={contact.phone} error={errors.phone} />
      <TextField
        name="email"
        label="Correo electrónico"
        type="email"
        autoComplete="off"
        defaultValue={contact.email ?? ''}
        error={errors.email}
      />
      <FormError error={failure} />
      {collision ? (
        <section
          role="alert"
          aria-labelledby="collision-title"
          className="grid gap-3 rounded-2xl bg-white p-4 ring-2 ring-terracotta-500"
        >
          <h3 id="collision-title" className="font-bold">
            Ese teléfono ya es de otro prospecto
          </h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-brand-700">Nombre</dt>
            <dd className="wrap-anywhere">{collision.other.name}</dd>
            <dt className="text-brand-700">Teléfono</dt>
            <dd>{formatPhone(collision.other.phone)}</dd>
            <dt className="text-brand-700">Correo</dt>
            <dd className="wrap-anywhere">{collision.other.email ?? '—'}</dd>
            <dt className="text-brand-700">Estado</dt>
            <dd>
              {STATE_LABELS[collision.other.state]} · {counted(collision.other.requests, 'solicitud', 'solicitudes')}
            </dd>
          </dl>
          <p className="text-sm">
            Si es la misma persona, únelos: este prospecto se queda con los datos que escribiste y recibe las
            solicitudes, notas, llamadas e historial de {collision.other.name}. No se puede deshacer.
          </p>
          <div className="flex flex-wrap gap-2">
            <BusyButton
              busy={merge.isPending}
              busyText="Uniendo…"
              className="btn btn-primary min-h-11 px-4 py-2"
              onClick={joinThem}
            >
              Unir los dos prospectos
            </BusyButton>
            <a href={`/admin/prospecto?id=${collision.other.id}`} className="btn btn-outline min-h-11 px-4 py-2">
              Ver el otro prospecto
            </a>
          </div>
        </section>
      ) : null}
      <FormActions
        onCancel={onDone}
        submit={edit.isPending ? 'Guardando…' : 'Guardar datos'}
        disabled={edit.isPending}
      />
    </form>
  );
}
