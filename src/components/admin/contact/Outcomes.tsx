import { type FormEvent, lazy, Suspense, useId, useRef, useState } from 'react';
import { type ContactState, isClosed, type LostReason } from '../../../lib/admin/contacts.ts';
import { fromMeridaWallTime, isPast, meridaDaysAhead, meridaWallTime } from '../../../lib/admin/merida-time.ts';
import {
  appointmentsAheadText,
  OUTCOME_KEYS,
  OUTCOME_NOTE_MAX,
  OUTCOMES,
  type Outcome,
  type OutcomeKey,
  stateAfter,
} from '../../../lib/admin/outcomes.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { explain, fieldErrors } from '../api.ts';
import { usePanelUser } from '../session.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { LostReasonField } from '../shared/ui.tsx';
import { useRecordOutcome } from './queries.ts';

// The booking dialog (and the slot picker) load when "Agendó visita" first opens it: the list's cards stay light.
const BookingDialog = lazy(() =>
  import('../appointments/BookingDialog.tsx').then((m) => ({ default: m.BookingDialog })),
);

/** What the outcome buttons need of a contact (a card of the list or the contact's page). */
export interface OutcomeTarget {
  id: string;
  name: string;
  state: ContactState;
}

/**
 * The one-tap outcomes of a call or a message (OUTCOMES, src/data/outcomes.ts):
 * a button each; it opens a sheet (a native <dialog>) with the proposed next
 * contact (Mérida's time, editable, a warning when it is past), the reason
 * when it closes the contact, and an optional short note. Guardar records it.
 */
export function Outcomes({ contact }: { contact: OutcomeTarget }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<OutcomeKey | null>(null);
  // "Agendó visita" opens the booking dialog once recorded (issue #40).
  const [booking, setBooking] = useState(false);
  // Kept once loaded: closing it is the dialog's own (toasts shown meanwhile move back to the page: Dialog.tsx).
  const [bookingLoaded, setBookingLoaded] = useState(false);
  const headingId = `id${useId()}`;

  function open(key: OutcomeKey) {
    setChosen(key);
    dialog.current?.showModal();
  }

  return (
    <section aria-label={`Resultado del contacto con ${contact.name}`} className="grid gap-2">
      <p className="text-sm font-bold text-brand-800">Resultado del contacto</p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {OUTCOME_KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className="btn btn-outline min-h-11 px-3 py-2 text-sm"
            onClick={() => open(key)}
          >
            {OUTCOMES[key].label}
          </button>
        ))}
      </div>
      <dialog
        ref={dialog}
        aria-labelledby={`${headingId}-sheet`}
        className="m-auto w-[min(30rem,calc(100vw-1.5rem))] rounded-3xl bg-sand-50 p-5 text-brand-900 shadow-2xl backdrop:bg-brand-900/60"
        onClose={() => setChosen(null)}
      >
        {chosen && (
          <OutcomeSheet
            key={chosen}
            titleId={`${headingId}-sheet`}
            contact={contact}
            outcomeKey={chosen}
            close={() => dialog.current?.close()}
            onSaved={() => {
              if ((OUTCOMES[chosen] as Outcome).opensBooking) {
                setBookingLoaded(true);
                setBooking(true);
              }
            }}
          />
        )}
      </dialog>
      {bookingLoaded && (
        <Suspense fallback={null}>
          <BookingDialog open={booking} contact={contact} onClose={() => setBooking(false)} />
        </Suspense>
      )}
    </section>
  );
}

function OutcomeSheet({
  titleId,
  contact,
  outcomeKey,
  close,
  onSaved,
}: {
  titleId: string;
  contact: OutcomeTarget;
  outcomeKey: OutcomeKey;
  close(): void;
  onSaved(): void;
}) {
  const outcome: Outcome = OUTCOMES[outcomeKey];
  const state = stateAfter(contact.state, outcome);
  // A closed contact stays closed (its reason kept, no next contact): the outcome is a line of its history.
  const closed = isClosed(contact.state);
  const proposed = outcome.next && !closed ? meridaWallTime(meridaDaysAhead(outcome.next.days, outcome.next.time)) : '';
  const [next, setNext] = useState(proposed);
  const [reason, setReason] = useState<LostReason>(outcome.lostReason ?? 'otro');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useRecordOutcome(contact.id);
  const admin = usePanelUser()?.admin === true;
  const id = `id${useId()}`;
  const instant = next ? fromMeridaWallTime(next) : null;
  const past = instant !== null && isPast(instant);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (next && !instant) return setError('Escribe una fecha y hora válidas.');
    setError(null);
    save.mutate(
      {
        outcome: outcomeKey,
        nextContactAt: closed ? null : instant,
        ...(state === 'cerrado_perdido' && !closed ? { lostReason: reason } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      {
        onSuccess: (saved) => {
          // Closed first: a toast shown while the dialog is modal lives inside it (toast.ts).
          close();
          const ahead = appointmentsAheadText(saved, admin);
          // Lost with a visit still booked: it stands, with the buyer's reminders, until someone cancels it.
          showToast({ title: `Guardado: ${outcome.label}`, ...(ahead && { description: ahead }) });
          onSaved();
        },
        onError: (failure) => {
          const fields = fieldErrors(failure);
          setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo guardar. Intenta de nuevo.'));
        },
      },
    );
  }

  return (
    <form method="dialog" onSubmit={submit} className="grid gap-4">
      <h2 id={titleId} className="text-lg font-bold wrap-anywhere">
        {outcome.label} · {contact.name}
      </h2>
      {closed ? null : state === 'cerrado_perdido' ? (
        <LostReasonField value={reason} onChange={(value) => setReason(value as LostReason)} />
      ) : (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-next`}>
            Próximo contacto (hora de Mérida)
          </label>
          <input
            id={`${id}-next`}
            type="datetime-local"
            className="field-input"
            value={next}
            onChange={(event) => setNext(event.target.value)}
            aria-describedby={past ? `${id}-past` : undefined}
          />
          {past && (
            <p id={`${id}-past`} role="status" className="field-hint font-semibold text-danger-600">
              Esta fecha y hora ya pasaron. Puedes guardarla así o cambiarla.
            </p>
          )}
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-note`}>
          Nota breve (opcional)
        </label>
        <textarea
          id={`${id}-note`}
          className="field-input min-h-20"
          value={note}
          maxLength={OUTCOME_NOTE_MAX}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <FormActions
        error={error}
        onCancel={close}
        submit={save.isPending ? 'Guardando…' : 'Guardar'}
        disabled={save.isPending}
        submitClassName="px-5 py-2"
      />
    </form>
  );
}
