import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showToast } from '../../../lib/client/toast.ts';
import { api, explain } from '../api.ts';
import { keys } from '../keys.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { FormActions } from '../shared/FormActions.tsx';

/**
 * "Cancelar cita" (issue #41: the seller cancels): asked first in the panel's
 * dialog, which says that the buyer is told and a paid appointment is
 * refunded; then POST /api/admin/appointments/{id}/cancel. The server decides
 * who may (the appointment's member or an administrator) and until when (its
 * start).
 */
export function CancelAppointment({
  appointmentId,
  contactId,
  contactName,
  paid,
}: {
  appointmentId: string;
  /** Their page's history gains the cancellation's line: asked again. */
  contactId: string;
  contactName: string;
  paid: boolean;
}) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const cancel = useMutation({
    mutationFn: () => api(`/api/admin/appointments/${appointmentId}/cancel`, { method: 'POST', json: {} }),
    onSuccess: async () => {
      setOpen(false);
      showToast({ title: `Cita cancelada: ${contactName}` });
      await Promise.all(
        [keys.appointments, keys.today, keys.contacts, keys.pipeline, keys.metrics, keys.contact(contactId)].map(
          (queryKey) => client.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-outline min-h-11 px-4 py-2 text-sm"
        aria-label={`Cancelar cita: ${contactName}`}
        onClick={() => setOpen(true)}
      >
        Cancelar cita
      </button>
      <Dialog open={open} title={`¿Cancelar la cita de ${contactName}?`} onClose={() => setOpen(false)}>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            cancel.mutate();
          }}
        >
          <p className="text-sm text-brand-800">
            Le avisamos por WhatsApp y por correo, y su horario queda libre.
            {paid ? ' Como ya la pagó, se le devuelve el pago.' : ''}
          </p>
          <FormActions
            error={cancel.isError ? explain(cancel.error) : null}
            submit={cancel.isPending ? 'Cancelando…' : 'Sí, cancelar'}
            disabled={cancel.isPending}
            onCancel={() => setOpen(false)}
            cancel="No, dejarla"
          />
        </form>
      </Dialog>
    </>
  );
}
