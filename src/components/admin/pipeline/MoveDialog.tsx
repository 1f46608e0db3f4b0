import { type FormEvent, useState } from 'react';
import {
  CONTACT_STATES,
  type ContactState,
  LOST_REASON_REQUIRED,
  type LostReason,
  STATE_LABELS,
} from '../../../lib/admin/contacts.ts';
import type { PipelineCard } from '../../../lib/admin/pipeline.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { FormActions } from '../shared/FormActions.tsx';
import { LostReasonField } from '../shared/ui.tsx';

/**
 * "Mover a…": the card's stage chosen from a list (the way on a phone, with
 * the keyboard and with a screen reader), or the lost reason asked for a card
 * dropped on «Cerrado: perdido». The platform's <dialog> keeps the focus.
 */
export function MoveDialog({
  card,
  to,
  onMove,
  onClose,
}: {
  card: PipelineCard | null;
  /** The stage already chosen (a drop), or null to choose it here. */
  to: ContactState | null;
  onMove(card: PipelineCard, to: ContactState, reason: LostReason | null): void;
  onClose(): void;
}) {
  return (
    <Dialog open={card !== null} title={card ? `Mover a ${card.name}` : 'Mover'} onClose={onClose}>
      {card && <MoveForm key={`${card.id}-${to}`} card={card} to={to} onMove={onMove} onClose={onClose} />}
    </Dialog>
  );
}

function MoveForm({
  card,
  to,
  onMove,
  onClose,
}: {
  card: PipelineCard;
  to: ContactState | null;
  onMove(card: PipelineCard, to: ContactState, reason: LostReason | null): void;
  onClose(): void;
}) {
  const [target, setTarget] = useState<ContactState | null>(to);
  const [reason, setReason] = useState<LostReason | ''>('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!target) return setError('Elige la etapa a la que lo mueves.');
    if (target === 'cerrado_perdido' && !reason) return setError(LOST_REASON_REQUIRED);
    onMove(card, target, target === 'cerrado_perdido' ? (reason as LostReason) : null);
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      {to === null ? (
        <fieldset className="grid gap-1">
          <legend className="field-label mb-1">Etapa</legend>
          {CONTACT_STATES.map((state) => (
            <label
              key={state}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-2 hover:bg-brand-900/5"
            >
              <input
                type="radio"
                name="stage"
                className="size-5 accent-brand-900"
                value={state}
                checked={target === state}
                disabled={state === card.state}
                onChange={() => setTarget(state)}
              />
              <span>
                {STATE_LABELS[state]}
                {state === card.state ? ' (etapa actual)' : ''}
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p>
          De «{STATE_LABELS[card.state]}» a «{STATE_LABELS[to]}».
        </p>
      )}
      {target === 'cerrado_perdido' && (
        <LostReasonField
          label="Motivo por el que se perdió"
          value={reason}
          onChange={setReason}
          choose
          invalid={error !== null && !reason}
        />
      )}
      <FormActions error={error} onCancel={onClose} submit="Mover" />
    </form>
  );
}
