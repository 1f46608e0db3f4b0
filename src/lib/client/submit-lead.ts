import { readAttribution } from './attribution.ts';
import { retryAfterMs } from './outbox.ts';

export type LeadResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      /** 0: no answer (no connection, or none within SUBMIT_TIMEOUT_MS). */
      status: number;
      error: string | null;
      fields: Record<string, string>;
      /** The answer's Retry-After, in ms from now. */
      retryAfter?: number;
    };

/**
 * How long a submission waits for an answer before it counts as lost (issue
 * #25): on a weak signal a request can hang for minutes, and the visitor
 * would be left on "Enviando...". A plain timer (not AbortSignal.timeout) so
 * a test can move it with Playwright's clock.
 */
export const SUBMIT_TIMEOUT_MS = 15_000;

/**
 * Sends a lead (its body from leadBody) to one of the /api endpoints with an idempotency key: the caller keeps one key per submission attempt
 * and sends it again on retry, so a double click or a retry stores one row.
 */
export async function submitLead<T>(path: string, body: string, idempotencyKey: string): Promise<LeadResult<T>> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), SUBMIT_TIMEOUT_MS);
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body,
      signal: abort.signal,
    });
    const answer = (await response.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    if (response.ok) return { ok: true, data: answer as T };
    return {
      ok: false,
      status: response.status,
      error: answer.error ?? null,
      fields: answer.fields ?? {},
      retryAfter: retryAfterMs(response.headers.get('Retry-After')),
    };
  } catch {
    return { ok: false, status: 0, error: null, fields: {} };
  } finally {
    clearTimeout(timer);
  }
}

/** What a lead sends: the form's values and the session's attribution. */
export function leadBody(payload: object): string {
  return JSON.stringify({ ...readAttribution(), ...payload });
}

/** A fresh key for a new submission attempt. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
