import { json } from './responses.ts';

/**
 * What every public write shares (the lead forms' leadHandler and the
 * booking, netlify/functions/appointments.ts): the Idempotency-Key's form and
 * the per-IP limit's window and answer. Apart from lead-handler.ts so that an
 * endpoint using them does not carry the lead path's senders.
 */

/** The fixed window of the per-IP limit of public writes (LEAD_RATE_LIMIT requests per window). */
export const RATE_WINDOW_SECONDS = 10 * 60;

/** What an Idempotency-Key header may be. */
export const IDEMPOTENCY_KEY = /^[\w.:-]{8,128}$/;
export const INVALID_IDEMPOTENCY_KEY =
  'El encabezado Idempotency-Key no es válido (8 a 128 letras, números, -, _, . o :).';

/** Seconds until the current fixed window of the rate limit ends (at least 1). */
function secondsLeftInWindow(windowSeconds: number, now = Date.now()): number {
  return Math.max(1, windowSeconds - (Math.floor(now / 1000) % windowSeconds));
}

/** Retry-After: the end of the fixed window, so a request kept in the visitor's outbox waits for it. */
export const tooMany = () =>
  json(
    429,
    { error: 'Recibimos demasiadas solicitudes desde tu conexión. Espera unos minutos e inténtalo de nuevo.' },
    { 'Retry-After': String(secondsLeftInWindow(RATE_WINDOW_SECONDS)) },
  );
