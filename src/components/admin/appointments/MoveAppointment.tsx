import { lazy, Suspense, useState } from 'react';
import type { MovedAppointment as Moved } from '../../../lib/appointments/panel.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { Loading } from '../shared/ui.tsx';

/** Loaded on the first press: the calendar's and Hoy's first touch do not carry the form. */
const MoveForm = lazy(() => import('./MoveForm.tsx'));

/**
 * "Reprogramar" (the buyer asked the team by phone or WhatsApp): a free slot
 * of the same kind and place, then POST /api/admin/appointments/{id}/move.
 * The buyer is told as for their own move. The server decides who may (the
 * appointment's member or an administrator) and until when (its start); a
 * slot taken meanwhile: its 409 words and the list asked again.
 */
export function MoveAppointment({ item }: { item: Moved }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-outline min-h-11 px-4 py-2 text-sm"
        aria-label={`Reprogramar cita: ${item.contact.name}`}
        onClick={() => setOpen(true)}
      >
        Reprogramar
      </button>
      <Dialog open={open} title={`Reprogramar · ${item.contact.name}`} onClose={() => setOpen(false)} wide>
        {open && (
          <Suspense fallback={<Loading text="Cargando…" />}>
            <MoveForm item={item} onClose={() => setOpen(false)} />
          </Suspense>
        )}
      </Dialog>
    </>
  );
}
