import { type FormEvent, useState } from 'react';
import { type ContactState, counted, LOST_REASON_REQUIRED, type LostReason } from '../../../lib/admin/contacts.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain, fieldErrors } from '../api.ts';
import { FormActions, FormError } from '../shared/FormActions.tsx';
import { LostReasonField, MemberOptions, StateOptions } from '../shared/ui.tsx';
import { useBulkChange } from './queries.ts';

const UNASSIGN = 'none';

/**
 * The action bar of the contacts selected in the list (administrators):
 * assign them to a member, move them to a state (a lost reason required for
 * «Cerrado: perdido», as on a contact's page), or both, in one change.
 */
export default function BulkBar({
  ids,
  members,
  onDone,
}: {
  ids: string[];
  /** The active members to assign to (null while they load). */
  members: { id: string; name: string }[] | null;
  onDone(): void;
}) {
  const [assignee, setAssignee] = useState('');
  const [state, setState] = useState<ContactState | ''>('');
  const [reason, setReason] = useState<LostReason | ''>('');
  const [error, setError] = useState<string | null>(null);
  const change = useBulkChange();

  function apply(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!assignee && !state) return setError('Elige a quién asignarlos o a qué estado moverlos.');
    if (state === 'cerrado_perdido' && !reason) return setError(LOST_REASON_REQUIRED);
    change.mutate(
      {
        ids,
        ...(state ? { state, lostReason: state === 'cerrado_perdido' ? (reason as LostReason) : null } : {}),
        ...(assignee ? { assignedTo: assignee === UNASSIGN ? null : assignee } : {}),
      },
      {
        onSuccess: (answer) => {
          showToast({
            title: 'Cambios aplicados',
            description: `${counted(answer.changed, 'prospecto actualizado', 'prospectos actualizados')}${answer.missing ? `; ${counted(answer.missing, 'ya no existía', 'ya no existían')}` : ''}.`,
          });
          setAssignee('');
          setState('');
          setReason('');
          onDone();
        },
        onError: (failure) => {
          const fields = fieldErrors(failure);
          setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo aplicar el cambio.'));
        },
      },
    );
  }

  return (
    <form
      onSubmit={apply}
      aria-label="Cambiar los seleccionados"
      className="sticky bottom-2 z-10 grid gap-3 rounded-2xl bg-sand-50 p-4 shadow-xl ring-2 ring-brand-900 sm:grid-cols-[auto_1fr_1fr_auto] sm:items-end"
    >
      <p className="font-bold" role="status">
        {counted(ids.length, 'seleccionado', 'seleccionados')}
      </p>
      <label className="field">
        <span className="field-label">Asignar a</span>
        <select className="field-input" value={assignee} onChange={(event) => setAssignee(event.target.value)}>
          <option value="">Sin cambiar</option>
          <option value={UNASSIGN}>Sin asignar</option>
          <MemberOptions members={members} />
        </select>
      </label>
      <label className="field">
        <span className="field-label">Cambiar estado</span>
        <select
          className="field-input"
          value={state}
          onChange={(event) => setState(event.target.value as ContactState | '')}
        >
          <option value="">Sin cambiar</option>
          <StateOptions />
        </select>
      </label>
      {state === 'cerrado_perdido' && (
        <LostReasonField
          label="Motivo de pérdida"
          className="field sm:col-start-3"
          value={reason}
          onChange={setReason}
          choose
          invalid={error === LOST_REASON_REQUIRED}
        />
      )}
      <FormActions
        align="start"
        className="sm:col-start-4 sm:row-start-1"
        submit={change.isPending ? 'Aplicando…' : 'Aplicar'}
        disabled={change.isPending}
        onCancel={onDone}
        cancel="Quitar selección"
      />
      <FormError error={error} className="field-error sm:col-span-4" />
    </form>
  );
}
