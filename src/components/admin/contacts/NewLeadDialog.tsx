import { lazy, Suspense, useState } from 'react';
import { Dialog } from '../shared/Dialog.tsx';
import { Loading } from '../shared/ui.tsx';

/** Loaded on the first press: the list's first touch does not carry the form. */
const NewLeadForm = lazy(() => import('./NewLeadForm.tsx'));

/**
 * "Nuevo prospecto": a lead that arrived by phone, at the office or by a
 * social network, typed in (name, phone, optional e-mail, where it came from
 * and a note). The phone's contact if there is one (never a second contact),
 * then its page, where the history says who captured it.
 */
export function NewLeadButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-primary min-h-11 px-4 py-2" onClick={() => setOpen(true)}>
        Nuevo prospecto
      </button>
      <Dialog open={open} title="Nuevo prospecto" onClose={() => setOpen(false)}>
        <Suspense fallback={<Loading text="Cargando…" />}>
          <NewLeadForm onCancel={() => setOpen(false)} />
        </Suspense>
      </Dialog>
    </>
  );
}
