import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * The panel's modal: the platform's <dialog> (focus kept inside, Escape
 * closes, the page behind inert), open while `open` is true; `onClose` when
 * the member closes it (Escape or "Cancelar").
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = `id${useId()}`; // an id begins with a letter (html-validate); React's begin with _
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      dialog.close();
      releaseToasts(dialog);
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={id}
      onClose={(event) => {
        releaseToasts(event.currentTarget);
        if (open) onClose();
      }}
      className={`m-auto max-h-[calc(100dvh-1.5rem)] overflow-y-auto rounded-3xl bg-sand-50 p-5 text-brand-900 shadow-2xl backdrop:bg-brand-900/60 sm:p-6 ${wide ? 'w-[min(36rem,calc(100vw-1.5rem))]' : 'w-[min(28rem,calc(100vw-1.5rem))]'}`}
    >
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {open && <div className="mt-4">{children}</div>}
    </dialog>
  );
}

/**
 * Toasts shown while a modal is open move into it (lib/client/toast.ts); one
 * shown as it closes (a saved change) would close with it: back to the page.
 */
function releaseToasts(dialog: HTMLDialogElement) {
  const toaster = document.getElementById('toasts-status')?.parentElement;
  if (toaster && dialog.contains(toaster)) document.body.append(toaster);
}
