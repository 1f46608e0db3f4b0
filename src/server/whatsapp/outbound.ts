import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { previewOf } from './payload.ts';
import { scheduleSends } from './queue.ts';

/**
 * A message of ours stored: the conversation's last message, and (a
 * person's message) nobody waits for a reply any more.
 */
export async function storedOurs(
  tx: Queryable,
  contactId: string,
  id: string,
  body: string,
  kind: 'text' | 'template' | 'interactive',
  byPerson: boolean,
): Promise<void> {
  await tx.query(
    `INSERT INTO whatsapp_conversations AS c (contact_id, last_message_id, last_message_at, last_direction, last_preview)
     VALUES ($1, $2, now(), 'out', $3)
     ON CONFLICT (contact_id) DO UPDATE SET
       last_message_id = CASE WHEN now() >= c.last_message_at THEN EXCLUDED.last_message_id ELSE c.last_message_id END,
       last_direction = CASE WHEN now() >= c.last_message_at THEN 'out' ELSE c.last_direction END,
       last_preview = CASE WHEN now() >= c.last_message_at THEN EXCLUDED.last_preview ELSE c.last_preview END,
       last_message_at = greatest(c.last_message_at, now()),
       waiting_since = CASE WHEN $4 THEN NULL ELSE c.waiting_since END,
       updated_at = now()`,
    [contactId, id, previewOf(kind, body), byPerson],
  );
  if (byPerson) await tx.query('UPDATE contacts SET last_activity_at = now() WHERE id = $1', [contactId]);
}

/**
 * An automatic answer of ours inside the window (free-form: a text or an
 * interactive message, never a template, so it takes no allowance): stored
 * as `sending` with its send job, and the conversation's last message
 * (nobody's wait ends with it: an adviser still reads the conversation),
 * once per `key`, in the caller's transaction. Its id, or null when that key
 * was queued before.
 */
export async function queueAutomaticAnswer(
  tx: Queryable,
  contactId: string,
  key: string,
  answer: { kind: 'text'; body: string } | { kind: 'interactive'; body: string; interactive: object },
): Promise<string | null> {
  const id = randomUUID();
  const raw = answer.kind === 'text' ? {} : { interactive: answer.interactive };
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO whatsapp_messages (id, contact_id, direction, kind, body, status, idempotency_key, automated, raw)
     VALUES ($1, $2, 'out', $3, $4, 'sending', $5, true, $6::jsonb)
     ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    [id, contactId, answer.kind, answer.body, key, JSON.stringify(raw)],
  );
  if (!inserted.rows[0]) return null;
  await storedOurs(tx, contactId, id, answer.body, answer.kind, false);
  await scheduleSends(tx, [id]);
  return id;
}
