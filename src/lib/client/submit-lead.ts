import { readAttribution } from './attribution.ts';

export type LeadResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string | null; fields: Record<string, string> };

/**
 * Sends a lead to one of the /api endpoints with the session's attribution
 * and an idempotency key: the caller keeps one key per submission attempt
 * and sends it again on retry, so a double click or a retry stores one row.
 */
export async function submitLead<T>(path: string, payload: object, idempotencyKey: string): Promise<LeadResult<T>> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ ...readAttribution(), ...payload }),
    });
    const body = (await response.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
    if (response.ok) return { ok: true, data: body as T };
    return { ok: false, status: response.status, error: body.error ?? null, fields: body.fields ?? {} };
  } catch {
    return { ok: false, status: 0, error: null, fields: {} };
  }
}

/** A fresh key for a new submission attempt. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
