import type { DeliveryView } from '../../lib/admin/notifications.ts';
import type { LeadRow } from '../../lib/leads/columns.ts';
import { CSV_FILE_NAMES, type LeadKind } from '../../lib/leads/kinds.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import type { Database, Queryable } from '../db/database.ts';
import { deliveriesOfLeads } from '../outbox/deliveries.ts';
import { CONTACT_WITH_NOTHING_LEFT, LEAD_TABLE_OF_KIND as TABLES } from './kinds.ts';

/** Rows newest first, after `cursor`; each with its own cursor, without the idempotency key. */
export async function leadsAfter(db: Queryable, kind: LeadKind, cursor: Cursor | null, limit: number) {
  const { rows } = await db.query<
    LeadRow & { cursor_at: string; idempotency_key?: string; idempotency_fingerprint?: string }
  >(
    `SELECT *, ${cursorTime('created_at')}
     FROM ${TABLES[kind]}
     WHERE $1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::uuid)
     ORDER BY created_at DESC, id DESC
     LIMIT $3`,
    [cursor?.at ?? null, cursor?.id ?? null, limit],
  );
  return rows.map(({ cursor_at, idempotency_key: _key, idempotency_fingerprint: _fingerprint, ...row }) => ({
    row: { ...row, created_at: new Date(row.created_at).toISOString() } as LeadRow,
    cursor: { at: cursor_at, id: row.id },
  }));
}

export interface LeadPage {
  items: LeadRow[];
  /** Each lead's notifications by lead id (absent: none were queued). */
  deliveries: Record<string, DeliveryView[]>;
  nextCursor: string | null;
  total: number;
}

export async function listLeads(
  db: Queryable,
  kind: LeadKind,
  cursor: Cursor | null,
  limit: number,
): Promise<LeadPage> {
  const [rows, count] = await Promise.all([
    leadsAfter(db, kind, cursor, limit + 1),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${TABLES[kind]}`),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const items = page.map((entry) => entry.row);
  return {
    items,
    deliveries: await deliveriesOfLeads(
      db,
      kind,
      items.map((row) => row.id),
    ),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursor) : null,
    total: count.rows[0]?.total ?? 0,
  };
}

/**
 * Deletes one lead and records it on the activity log, in one transaction;
 * when it was the person's last one and nothing else of theirs is left (a
 * call, a conversation, an appointment, a payment, a contact the team typed
 * in: CONTACT_WITH_NOTHING_LEFT), the contact goes too, with its notes and
 * history. Erasing a person is the contact's own action (person.ts).
 */
export async function deleteLead(db: Database, kind: LeadKind, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ contact_id: string }>(
      `DELETE FROM ${TABLES[kind]} WHERE id = $1 RETURNING contact_id`,
      [id],
    );
    const contactId = rows[0]?.contact_id;
    if (!contactId) return false;
    // Its notifications go with it (a queued job then finds nothing to send).
    await tx.query(`DELETE FROM notification_deliveries WHERE purpose = 'lead' AND lead_id = $1`, [id]);
    await tx.query(`DELETE FROM contacts c WHERE c.id = $1 AND ${CONTACT_WITH_NOTHING_LEFT}`, [contactId]);
    await recordActivity(tx, {
      actor,
      kind: 'deletion',
      summary: `Eliminó una solicitud de ${CSV_FILE_NAMES[kind].replace('.csv', '').replaceAll('_', ' ')}`,
      details: { leadKind: kind, id },
    });
    return true;
  });
}
