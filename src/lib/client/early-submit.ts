import { showToast, type Toast } from './toast.ts';

/**
 * How long a held submit waits for its island before the visitor is told: the
 * island's code loads in well under a second on a phone with signal, and a
 * press still held after this has lost its code (no signal, a blocked file).
 */
const WAIT_MS = 6000;

/** Said when a form pressed before its island was ready is still held after WAIT_MS. */
export const NOT_READY_TOAST: Toast = {
  title: 'Tu solicitud todavía no se envía',
  description: 'La página no terminó de cargar. Revisa tu conexión y vuelve a intentarlo; tus datos siguen aquí.',
  variant: 'destructive',
};

/**
 * Holds a form submitted before its island finished hydrating (its
 * `data-enhanced="pending"`), so the island sends it once ready instead of
 * the browser posting it as a page. Run by the page scripts (src/scripts/).
 * When the island's code never comes, the visitor is told after WAIT_MS
 * rather than left pressing a button that does nothing; the press stays
 * queued, and the island still sends it if its code arrives later.
 */
export function holdEarlySubmits(): void {
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (form instanceof HTMLFormElement && form.dataset.enhanced === 'pending') {
        event.preventDefault();
        form.dataset.submitQueued = 'true';
        setTimeout(() => {
          if (form.dataset.enhanced === 'pending' && form.dataset.submitQueued) showToast(NOT_READY_TOAST);
        }, WAIT_MS);
      }
    },
    true,
  );
}
