import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** The largest delivery we accept: Meta batches up to 1,000 updates, each a few hundred bytes. */
export const MAX_WEBHOOK_BYTES = 3 * 1024 * 1024;

/**
 * `X-Hub-Signature-256: sha256=<hex>` is the HMAC-SHA256 of the body's bytes
 * exactly as sent (never of re-serialised JSON: accents and emoji are
 * escaped differently) with the app secret; compared in constant time.
 */
export function signatureValid(raw: Uint8Array, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const sent = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(sent, expected);
}

/** The handshake: `hub.mode=subscribe` and our verify token give back `hub.challenge`; null refuses it. */
export function handshake(url: URL, verifyToken: string): string | null {
  const mode = url.searchParams.get('hub.mode');
  const token = url.searchParams.get('hub.verify_token') ?? '';
  const challenge = url.searchParams.get('hub.challenge');
  if (mode !== 'subscribe' || challenge === null || !/^[\w-]{1,200}$/.test(challenge)) return null;
  const sent = createHmac('sha256', 'verify').update(token).digest();
  const expected = createHmac('sha256', 'verify').update(verifyToken).digest();
  return timingSafeEqual(sent, expected) ? challenge : null;
}

/** The delivery, stored as received: one INSERT, the whole of the acknowledgement's work. */
export async function storeEvent(db: Queryable, body: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO whatsapp_webhook_events (body) VALUES ($1) RETURNING id',
    [body],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the webhook event was not stored');
  return String(id);
}
