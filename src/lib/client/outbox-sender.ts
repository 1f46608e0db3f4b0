/**
 * Sends what waits in the outbox: now, whenever the browser comes back
 * online, and with a growing pause while the page stays open, never before
 * an entry's Retry-After. A 2xx or a 4xx other than 408 and 429 ends an
 * entry (the 4xx is shown, never retried); no answer, 408, 429 and 5xx keep
 * it. While something waits, a quiet "pendiente" notice stays on screen.
 * Part of the page script (site.ts), one per page: a form that has just
 * kept a request asks it to send with `requestOutboxSend()`.
 */
import { dropFromOutbox, isRetriable, nextAttemptAt, readOutbox, updateInOutbox } from './outbox.ts';
import { submitLead } from './submit-lead.ts';
import { showToast } from './toast.ts';

const PAUSES_MS = [5_000, 15_000, 45_000, 120_000, 300_000];
let started = false;
let sending = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

const NOTICE_ID = 'outbox-pending';

/** Sent later, when the form has no words of its own for it (OutboxEntry.delivered). */
const DELIVERED = { title: 'Solicitud enviada', description: 'Recibimos la solicitud que tenías pendiente de envío.' };

function showPending(count: number): void {
  let notice = document.getElementById(NOTICE_ID);
  if (count === 0) {
    notice?.remove();
    return;
  }
  if (!notice) {
    notice = document.createElement('p');
    notice.id = NOTICE_ID;
    notice.setAttribute('role', 'status');
    notice.className = 'outbox-pending';
    document.body.append(notice);
  }
  notice.textContent = count === 1 ? 'Solicitud pendiente de envío' : `${count} solicitudes pendientes de envío`;
}

async function send(): Promise<void> {
  if (sending) return;
  sending = true;
  try {
    for (const entry of readOutbox()) {
      if ((entry.notBefore ?? 0) > Date.now()) continue; // the server asked us to wait
      const result = await submitLead(entry.endpoint, entry.body, entry.key);
      if (result.ok) {
        dropFromOutbox(entry.key);
        failures = 0;
        showToast(entry.delivered ?? DELIVERED);
      } else if (!isRetriable(result.status)) {
        dropFromOutbox(entry.key);
        showToast({
          title: 'No pudimos enviar tu solicitud guardada',
          description: result.error ?? 'Revisa tus datos y envía el formulario de nuevo.',
          variant: 'destructive',
        });
      } else {
        failures++;
        if (result.retryAfter !== undefined) updateInOutbox(entry.key, { notBefore: Date.now() + result.retryAfter });
        break; // still no way through: the rest waits too
      }
    }
  } finally {
    sending = false;
    const left = readOutbox();
    showPending(left.length);
    clearTimeout(timer);
    const now = Date.now();
    const next = nextAttemptAt(left, now, PAUSES_MS[Math.min(failures, PAUSES_MS.length - 1)] ?? 0);
    if (next !== null) timer = setTimeout(() => void send(), next - now);
  }
}

/** Starts sending (once per page) and returns when the first round is done. */
export function startOutbox(): Promise<void> {
  if (!started) {
    started = true;
    window.addEventListener('online', () => {
      failures = 0;
      void send();
    });
  }
  return send();
}
