import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { MoveAnswer, MovedAppointment as Moved } from '../../../lib/appointments/panel.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { ApiError, api, explain, fieldErrors } from '../api.ts';
import { keys } from '../keys.ts';
import { FormActions } from '../shared/FormActions.tsx';
import { FreeSlots } from './FreeSlots.tsx';
import { useMoveSlots } from './queries.ts';
import { addDays, meridaClock, meridaDate, shortDay } from './time.ts';

/** How far ahead the dialog lists free slots, in days (as the booking dialog). */
const DAYS_SHOWN = 21;

/** The move's form (MoveAppointment): loaded on the first press, so the calendar's first touch does not carry it. */
export default function MoveForm({ item, onClose }: { item: Moved; onClose(): void }) {
  const client = useQueryClient();
  const today = meridaDate(Date.now());
  const slots = useMoveSlots(item.id, today, addDays(today, DAYS_SHOWN - 1));
  const [start, setStart] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = `id${useId()}`;
  const move = useMutation({
    mutationFn: (chosen: string) =>
      api<MoveAnswer>(`/api/admin/appointments/${item.id}/move`, { method: 'POST', json: { start: chosen } }),
    onSuccess: async (moved) => {
      onClose();
      const when = `${item.kindName} · ${shortDay(meridaDate(moved.start))}, ${meridaClock(moved.start)}`;
      // Already there (the buyer moved it to that time meanwhile): nothing changed and nobody was told.
      showToast(
        moved.moved
          ? {
              title: `Cita reprogramada: ${item.contact.name}`,
              description: `${when}. Le avisamos por WhatsApp y por correo.`,
            }
          : {
              title: `La cita ya estaba en ese horario: ${item.contact.name}`,
              description: `${when}. No cambió nada.`,
            },
      );
      await Promise.all(
        [keys.appointments, keys.today, keys.contact(item.contact.id)].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 409) void slots.refetch();
      const fields = fieldErrors(failure);
      setError((fields && Object.values(fields)[0]) ?? explain(failure, 'No se pudo reprogramar. Intenta de nuevo.'));
    },
  });
  const offered = slots.data?.slots ?? [];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!start || !offered.some((slot) => slot.start === start)) return setError('Elige un horario de la lista.');
    setError(null);
    move.mutate(start);
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <p className="text-sm text-brand-800">
        {item.kindName}: elige su nuevo horario. Le avisamos por WhatsApp y por correo, y su horario de ahora queda
        libre.
      </p>
      <FreeSlots
        slots={slots}
        selected={start}
        onSelect={setStart}
        idPrefix={`${id}-`}
        empty={`No hay otros horarios libres en los próximos ${DAYS_SHOWN} días para esta cita. Revisa la disponibilidad del equipo.`}
      />
      <FormActions
        error={error}
        submit={move.isPending ? 'Reprogramando…' : 'Reprogramar'}
        disabled={move.isPending}
        onCancel={onClose}
      />
    </form>
  );
}
