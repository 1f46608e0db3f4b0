import {
  type QuickReply,
  type QuickReplyInput,
  quickReplyValues,
  renderQuickReply,
} from '../../lib/whatsapp/contract.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';

interface Row {
  id: string;
  title: string;
  body: string;
  updated_at: Date;
}

const toQuickReply = (row: Row, text?: string): QuickReply => ({
  id: row.id,
  title: row.title,
  body: row.body,
  ...(text === undefined ? {} : { text }),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** The activity entry of a change to a quick reply: "Creó la respuesta rápida «Horario»". */
function recordChange(tx: Queryable, actor: Actor, verb: 'Creó' | 'Editó' | 'Eliminó', title: string, id: string) {
  return recordActivity(tx, {
    actor,
    kind: 'quick_reply_changed',
    summary: `${verb} la respuesta rápida «${title}»`,
    details: { quickReply: id },
  });
}

/**
 * The saved answers, by title; with `contactId`, each also filled in for that
 * contact (`{nombre}`: their first name) and the member (`{asesor}`: theirs).
 * null when the contact does not exist.
 */
export async function listQuickReplies(
  db: Queryable,
  contactId: string | null,
  member: { name: string },
): Promise<QuickReply[] | null> {
  const { rows } = await db.query<Row>(
    'SELECT id, title, body, updated_at FROM whatsapp_quick_replies ORDER BY lower(title)',
  );
  if (!contactId) return rows.map((row) => toQuickReply(row));
  const contact = await db.query<{ name: string }>('SELECT name FROM contacts WHERE id = $1', [contactId]);
  const name = contact.rows[0]?.name;
  if (name === undefined) return null;
  const values = quickReplyValues(name, member.name);
  return rows.map((row) => toQuickReply(row, renderQuickReply(row.body, values)));
}

const UNIQUE_VIOLATION = '23505';

/** The result of a change: the quick reply, none with that id, or its title taken by another. */
export type QuickReplyChange = { quickReply: QuickReply } | 'not_found' | 'title_taken';

async function unique<T>(work: () => Promise<T>): Promise<T | 'title_taken'> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'title_taken';
    throw error;
  }
}

/** Creates, edits or deletes a quick reply, with its activity entry, in one transaction (administrators). */
export async function createQuickReply(db: Database, input: QuickReplyInput, actor: Actor): Promise<QuickReplyChange> {
  return unique(() =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `INSERT INTO whatsapp_quick_replies (title, body, updated_by) VALUES ($1, $2, $3)
         RETURNING id, title, body, updated_at`,
        [input.title, input.body, actor.id],
      );
      const row = rows[0] as Row;
      await recordChange(tx, actor, 'Creó', row.title, row.id);
      return { quickReply: toQuickReply(row) };
    }),
  );
}

export async function updateQuickReply(
  db: Database,
  id: string,
  input: Partial<QuickReplyInput>,
  actor: Actor,
): Promise<QuickReplyChange> {
  return unique(() =>
    db.transaction(async (tx) => {
      const { rows } = await tx.query<Row>(
        `UPDATE whatsapp_quick_replies SET title = coalesce($2, title), body = coalesce($3, body),
           updated_at = now(), updated_by = $4
         WHERE id = $1 RETURNING id, title, body, updated_at`,
        [id, input.title ?? null, input.body ?? null, actor.id],
      );
      const row = rows[0];
      if (!row) return 'not_found' as const;
      await recordChange(tx, actor, 'Editó', row.title, row.id);
      return { quickReply: toQuickReply(row) };
    }),
  );
}

export async function deleteQuickReply(db: Database, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ title: string }>(
      'DELETE FROM whatsapp_quick_replies WHERE id = $1 RETURNING title',
      [id],
    );
    const row = rows[0];
    if (!row) return false;
    await recordChange(tx, actor, 'Eliminó', row.title, id);
    return true;
  });
}
