import { type FormEvent, useEffect, useState } from 'react';
import { CATALOGUE_MODELS, catalogueModel, formatPesos } from '../../../lib/admin/catalogue.ts';
import {
  type ContactDetail,
  type ContactState,
  ESTIMATED_VALUE_INVALID,
  ESTIMATED_VALUE_MAX,
  type LostReason,
} from '../../../lib/admin/contacts.ts';
import { fromMeridaWallTime, isPast, meridaWallTime } from '../../../lib/admin/merida-time.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain, fieldErrors } from '../api.ts';
import { FormError } from '../shared/FormActions.tsx';
import { LostReasonField, MemberOptions, SelectBox, StateOptions } from '../shared/ui.tsx';
import { useSaveFollowUp } from './queries.ts';

/** State, reason, assignee and next contact, saved on the version the adviser saw. */
export function FollowUpForm({
  contact,
  members,
  onStale,
}: {
  contact: ContactDetail;
  /** The active members, for an administrator (who assigns); null for an adviser. */
  members: { id: string; name: string }[] | null;
  onStale(): void;
}) {
  const [state, setState] = useState<ContactState>(contact.state);
  const [assigned, setAssigned] = useState(contact.assignedTo?.id ?? '');
  const [reason, setReason] = useState<LostReason | ''>(contact.lostReason ?? '');
  const wall = (instant: string | null) => (instant ? meridaWallTime(instant) : '');
  const [next, setNext] = useState(wall(contact.nextContactAt));
  const [model, setModel] = useState(contact.modelId ?? '');
  const [value, setValue] = useState(contact.estimatedValue === null ? '' : String(contact.estimatedValue));
  const [close, setClose] = useState(contact.expectedCloseOn ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveFollowUp(contact.id);
  // The fields follow the server's version only: an optimistic change, or one taken back, leaves what was typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version is what says the stored contact changed
  useEffect(() => {
    setState(contact.state);
    setReason(contact.lostReason ?? '');
    setNext(wall(contact.nextContactAt));
    setAssigned(contact.assignedTo?.id ?? '');
    setModel(contact.modelId ?? '');
    setValue(contact.estimatedValue === null ? '' : String(contact.estimatedValue));
    setClose(contact.expectedCloseOn ?? '');
  }, [contact.id, contact.version]);
  const instant = next ? fromMeridaWallTime(next) : null;
  // A warning, never a refusal: a call made yesterday may be written down today.
  const past = instant !== null && isPast(instant);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (state === 'cerrado_perdido' && !reason) return setError('Elige el motivo por el que se perdió.');
    if (next && !instant) return setError('Escribe una fecha y hora válidas.');
    const pesos = value.replace(/[\s,$]/g, '');
    if (pesos && (!/^\d{1,9}$/.test(pesos) || Number(pesos) > ESTIMATED_VALUE_MAX)) {
      return setError(ESTIMATED_VALUE_INVALID);
    }
    save.mutate(
      {
        state,
        lostReason: state === 'cerrado_perdido' ? (reason as LostReason) : null,
        nextContactAt: instant,
        ...(members ? { assignedTo: assigned || null } : {}),
        modelId: model || null,
        estimatedValue: pesos ? Number(pesos) : null,
        expectedCloseOn: close || null,
        version: contact.version,
      },
      {
        onSuccess: () => showToast({ title: 'Cambios guardados' }),
        onError: (failure) => {
          if (failure.status === 409) return onStale();
          const fields = fieldErrors(failure);
          setError(
            (fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo guardar el cambio. Intenta de nuevo.'),
          );
        },
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-4 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10 sm:grid-cols-3 sm:items-end"
      aria-label="Seguimiento"
    >
      <SelectBox<ContactState> label="Estado" value={state} onChange={setState}>
        <StateOptions />
      </SelectBox>
      {state === 'cerrado_perdido' && (
        <LostReasonField value={reason} onChange={setReason} choose invalid={error !== null && !reason} />
      )}
      {members ? (
        <SelectBox label="Asignado a" value={assigned} onChange={setAssigned}>
          <option value="">Sin asignar</option>
          <MemberOptions members={members} />
        </SelectBox>
      ) : (
        <p className="field">
          <span className="field-label">Asignado a</span>
          <span className="py-2">{contact.assignedTo?.name ?? 'Sin asignar'}</span>
        </p>
      )}
      <div className="field">
        <label className="field-label" htmlFor="next-contact">
          Próximo contacto (hora de Mérida)
        </label>
        <input
          id="next-contact"
          type="datetime-local"
          className={`field-input ${past ? 'text-danger-600' : ''}`}
          value={next}
          onChange={(event) => setNext(event.target.value)}
          aria-describedby={past ? 'next-contact-past' : undefined}
        />
        {past && (
          <p id="next-contact-past" role="status" className="field-hint font-semibold text-danger-600">
            Esta fecha y hora ya pasaron. Puedes guardarla así o cambiarla.
          </p>
        )}
      </div>
      <SelectBox label="Modelo de interés" value={model} onChange={setModel}>
        <option value="">Sin elegir</option>
        {CATALOGUE_MODELS.map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.name} · {formatPesos(entry.price)}
          </option>
        ))}
        {model && !catalogueModel(model) && <option value={model}>{model} (ya no está en el catálogo)</option>}
      </SelectBox>
      <div className="field">
        <label className="field-label" htmlFor="estimated-value">
          Valor estimado (MXN)
        </label>
        <input
          id="estimated-value"
          className="field-input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={14}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder={catalogueModel(model) ? String(catalogueModel(model)?.price) : 'Por ejemplo, 350000'}
          aria-describedby="estimated-value-hint"
        />
        <p id="estimated-value-hint" className="field-hint">
          Vacío: el precio del modelo en el catálogo.
        </p>
      </div>
      <label className="field">
        <span className="field-label">Cierre esperado</span>
        <input type="date" className="field-input" value={close} onChange={(event) => setClose(event.target.value)} />
      </label>
      <button type="submit" className="btn btn-primary min-h-12" disabled={save.isPending}>
        {save.isPending ? 'Guardando…' : 'Guardar cambios'}
      </button>
      <FormError error={error} className="field-error sm:col-span-3" />
    </form>
  );
}
