import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatNextContact } from '../../../lib/admin/merida-time.ts';
import { APPOINTMENT_STATUS_LABELS, type AttendanceSaved } from '../../../lib/appointments/attendance.ts';
import type { AppointmentStatus } from '../../../lib/appointments/booking.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { api, explain } from '../api.ts';
import { keys } from '../keys.ts';
import { usePassed } from './use-passed.ts';

const BUTTON = 'btn min-h-11 flex-1 px-4 py-2 text-sm sm:flex-none';

/**
 * "Asistió" / "No asistió" (issue #40, decision 0062): one tap each, once the
 * appointment has started and while it is confirmed
 * (POST /api/admin/appointments/{id}/attendance). A no-show then offers the
 * proposed follow-up (tomorrow 10:00 in Mérida) in one more tap, which sets
 * the contact's next contact (and its reminder) as the contact page does;
 * "Ahora no" leaves it. `onDone` is called once the mark (and a no-show's
 * offer) is settled, after the day's and the contact's data are asked again.
 * Before the start it says from when it can be marked; a marked appointment
 * shows its mark; a cancelled or unpaid one shows nothing.
 */
export function AttendanceButtons({
  appointmentId,
  start,
  status,
  contactName,
  onMarked,
  onDone,
}: {
  appointmentId: string;
  /** The appointment's start (ISO). */
  start: string;
  status: AppointmentStatus;
  /** Names the buttons for a screen reader ("Asistió: María Pech"). */
  contactName?: string;
  /** At once when the mark is saved (before a no-show's offer is settled): a status badge beside it can follow. */
  onMarked?(saved: AttendanceSaved): void;
  onDone?(saved: AttendanceSaved): void;
}) {
  const client = useQueryClient();
  const [offer, setOffer] = useState<AttendanceSaved | null>(null);
  const [scheduled, setScheduled] = useState<string | null>(null);
  const errorId = `id${useId()}`;
  const refresh = () =>
    Promise.all(
      [keys.today, keys.contacts, keys.pipeline, keys.metrics, keys.reminders, keys.appointments].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  const finish = async (saved: AttendanceSaved) => {
    await refresh();
    onDone?.(saved);
  };

  const mark = useMutation({
    mutationFn: (attended: boolean) =>
      api<AttendanceSaved>(`/api/admin/appointments/${appointmentId}/attendance`, {
        method: 'POST',
        json: { attended },
      }),
    onSuccess: async (saved) => {
      onMarked?.(saved);
      await client.invalidateQueries({ queryKey: keys.contact(saved.contact.id) });
      if (saved.proposedNextContactAt) return setOffer(saved);
      showToast({
        title: `Asistencia registrada: ${saved.contact.name} ${saved.status === 'asistio' ? 'asistió' : 'no asistió'}`,
      });
      await finish(saved);
    },
  });
  const followUp = useMutation({
    mutationFn: (saved: AttendanceSaved) =>
      api(`/api/admin/contacts/${saved.contact.id}`, {
        method: 'PATCH',
        json: { nextContactAt: saved.proposedNextContactAt, version: saved.contact.version },
      }),
    onSuccess: async (_answer, saved) => {
      setScheduled(saved.proposedNextContactAt);
      setOffer(null);
      showToast({ title: `Seguimiento agendado con ${saved.contact.name}` });
      await client.invalidateQueries({ queryKey: keys.contact(saved.contact.id) });
      await finish(saved);
    },
  });

  const started = usePassed(start);
  const who = contactName ? `: ${contactName}` : '';
  if (offer) {
    const when = formatNextContact(offer.proposedNextContactAt ?? '');
    return (
      <fieldset className="grid min-w-0 gap-2 rounded-xl bg-sand-100 p-3">
        <legend className="sr-only">Seguimiento{who}</legend>
        <p className="text-sm">
          <span className="font-semibold">No asistió.</span> ¿Agendar el próximo contacto para el{' '}
          <span className="font-semibold">{when}</span>?
        </p>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${BUTTON} btn-primary`}
            disabled={followUp.isPending}
            aria-describedby={followUp.isError ? errorId : undefined}
            onClick={() => followUp.mutate(offer)}
          >
            {followUp.isPending ? 'Agendando…' : 'Agendar seguimiento'}
          </button>
          <button
            type="button"
            className={`${BUTTON} btn-outline`}
            disabled={followUp.isPending}
            onClick={() => {
              setOffer(null);
              void finish(offer);
            }}
          >
            Ahora no
          </button>
        </div>
        {followUp.isError && (
          <p id={errorId} role="alert" className="text-sm font-semibold text-danger-600">
            {explain(followUp.error)}
          </p>
        )}
      </fieldset>
    );
  }
  if (scheduled) {
    return (
      <p className="text-sm font-semibold text-brand-800" role="status">
        No asistió · Seguimiento: {formatNextContact(scheduled)}
      </p>
    );
  }
  if (status === 'asistio' || status === 'no_asistio') {
    return (
      <p className="text-sm font-semibold text-brand-800">
        {status === 'asistio' ? '✓ ' : ''}
        {APPOINTMENT_STATUS_LABELS[status]}
      </p>
    );
  }
  if (status !== 'confirmada') return null;
  if (!started) {
    return <p className="text-sm text-brand-800">Podrás marcar la asistencia cuando empiece la cita.</p>;
  }

  const pending = mark.isPending ? mark.variables : null;
  return (
    <div className="grid gap-2">
      <fieldset className="flex min-w-0 flex-wrap gap-2" aria-busy={mark.isPending}>
        <legend className="sr-only">Asistencia{who}</legend>
        <button
          type="button"
          className={`${BUTTON} btn-primary`}
          disabled={mark.isPending}
          aria-describedby={mark.isError ? errorId : undefined}
          onClick={() => mark.mutate(true)}
        >
          {pending === true ? 'Guardando…' : 'Asistió'}
        </button>
        <button
          type="button"
          className={`${BUTTON} btn-outline`}
          disabled={mark.isPending}
          aria-describedby={mark.isError ? errorId : undefined}
          onClick={() => mark.mutate(false)}
        >
          {pending === false ? 'Guardando…' : 'No asistió'}
        </button>
      </fieldset>
      {mark.isError && (
        <p id={errorId} role="alert" className="text-sm font-semibold text-danger-600">
          {explain(mark.error)}
        </p>
      )}
    </div>
  );
}
