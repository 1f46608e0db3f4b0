import { readAttribution } from './attribution.ts';

export type LeadResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string | null; fields: Record<string, string> };

/**
 * Sends a lead (its body from leadBody) to one of the /api endpoints with an idempotency key: the caller keeps one key per submission attempt
 * and sends it again on retry, so a double click or a retry stores one row.
 */
export async function submitLead<T>(path: string, body: string, idempotencyKey: string): Promise<LeadResult<T>> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body,
    });
    const answer = (await response.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    if (response.ok) return { ok: true, data: answer as T };
    return { ok: false, status: response.status, error: answer.error ?? null, fields: answer.fields ?? {} };
  } catch {
    return { ok: false, status: 0, error: null, fields: {} };
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
