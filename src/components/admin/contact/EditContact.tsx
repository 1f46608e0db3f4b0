import { lazy, Suspense, useState } from 'react';
import type { ContactDetail } from '../../../lib/admin/contacts.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { Loading } from '../shared/ui.tsx';

/** Loaded on the first press: the contact's first touch does not carry the form. */
const EditForm = lazy(() => import('./EditForm.tsx'));

/**
 * "Editar datos": the contact's name, phone and e-mail corrected (each change
 * a line of its history). A phone that is another contact's shows that
 * contact and offers to merge the two: this one stays, with the corrected
 * data and everything of both.
 */
export function EditContact({ contact, onStale }: { contact: ContactDetail; onStale(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={() => setOpen(true)}>
        Editar datos
      </button>
      <Dialog open={open} title="Editar datos del prospecto" onClose={() => setOpen(false)} wide>
        <Suspense fallback={<Loading text="Cargando…" />}>
          <EditForm
            contact={contact}
            onDone={() => setOpen(false)}
            onStale={() => {
              setOpen(false);
              onStale();
            }}
          />
        </Suspense>
      </Dialog>
    </>
  );
}
