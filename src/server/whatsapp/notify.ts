import { contactNotice } from '../contacts/notice.ts';
import type { Queryable } from '../db/database.ts';
import { scheduleDeliveries } from '../outbox/queue.ts';

/** Their WhatsApp messages waiting in the panel: who wrote, the first line, the link to the conversation. */
export interface InboundMessageNotice {
  contactName: string;
  phone: string;
  /** The first line of their latest message (plain text). */
  preview: string;
  /** Their messages not read yet. */
  unread: number;
  /** How many messages they had sent when this notice was written (see laterMessagesNoticed). */
  inbound: number;
  url: string;
  to: string;
}

/**
 * Their messages being stored (a webhook event processed), in the transaction
 * that stores them: the contact's adviser is told by e-mail (administrators
 * when nobody follows it). An unassigned contact already got the
 * round-robin's next adviser, when it is on, a moment before in the same
 * transaction (assignByRoundRobin, called by processEvent). So a message is
 * never stored without its e-mail queued: a failure here fails the event,
 * which the queue processes again. One e-mail per contact and member while
 * one is waiting: a burst of messages is one e-mail. The panel's badge counts
 * them regardless (whatsapp_conversations).
 */
export async function queueInboundNotices(tx: Queryable, contactIds: readonly string[]): Promise<void> {
  for (const contactId of new Set(contactIds)) {
    const deliveries = await tx.query<{ id: string }>(
      `WITH assignee AS (
         SELECT u.id FROM users u JOIN contacts c ON c.assigned_to = u.id
         WHERE c.id = $1 AND u.deactivated_at IS NULL
       ), recipients AS (
         SELECT id FROM assignee
         UNION ALL
         SELECT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
         WHERE r.role = 'admin' AND u.deactivated_at IS NULL AND NOT EXISTS (SELECT 1 FROM assignee)
       )
       INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id)
       SELECT 'message', 'email', $1, id FROM recipients
       ON CONFLICT DO NOTHING RETURNING id`,
      [contactId],
    );
    await scheduleDeliveries(
      tx,
      deliveries.rows.map((row) => row.id),
      null,
    );
  }
}

/**
 * The round-robin's next adviser for an unassigned contact, when it is on (as
 * touch_contact does for new ones), in the caller's transaction: the one that
 * stores the contact's message, so the message is never seen in the panel
 * (nor its e-mail sent) before its contact has an adviser, and a worker that
 * dies in between leaves neither behind.
 */
export async function assignByRoundRobin(tx: Queryable, contactId: string): Promise<void> {
  const { rows } = await tx.query<{ round_robin: boolean }>(
    `SELECT t.round_robin FROM team_settings t, contacts c WHERE c.id = $1 AND c.assigned_to IS NULL`,
    [contactId],
  );
  if (!rows[0]?.round_robin) return;
  await tx.query(
    `WITH settings AS (SELECT last_assigned FROM team_settings WHERE round_robin FOR UPDATE),
     adviser AS (
       SELECT u.id, coalesce(u.name, u.email) AS name FROM users u JOIN user_roles r ON r.user_id = u.id, settings s
       WHERE r.role = 'asesor' AND u.deactivated_at IS NULL
       ORDER BY (u.id > coalesce(s.last_assigned, '00000000-0000-0000-0000-000000000000'::uuid)) DESC, u.id
       LIMIT 1
     ),
     assigned AS (
       UPDATE contacts c SET assigned_to = a.id, version = version + 1 FROM adviser a
       WHERE c.id = $1 AND c.assigned_to IS NULL RETURNING a.id, a.name
     ),
     moved AS (UPDATE team_settings SET last_assigned = (SELECT id FROM assigned) WHERE EXISTS (SELECT 1 FROM assigned))
     INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
     SELECT $1, 'assigned', NULL, name, 'Asignación automática (por turnos)' FROM assigned`,
    [contactId],
  );
}

/** The e-mail's content of a `message` delivery; null when the contact or the member is gone (or deactivated). */
export async function inboundMessageNotice(
  db: Queryable,
  contactId: string,
  recipientId: string,
  site: string,
): Promise<InboundMessageNotice | null> {
  const { rows } = await db.query<{
    name: string;
    phone: string;
    preview: string | null;
    unread: number | null;
    inbound: number;
    email: string;
  }>(
    `SELECT c.name, c.phone, w.last_preview AS preview, w.unread_count AS unread, u.email,
            (SELECT count(*)::int FROM whatsapp_messages m WHERE m.contact_id = c.id AND m.direction = 'in') AS inbound
     FROM contacts c JOIN users u ON u.id = $2 AND u.deactivated_at IS NULL
     LEFT JOIN whatsapp_conversations w ON w.contact_id = c.id
     WHERE c.id = $1`,
    [contactId, recipientId],
  );
  const row = rows[0];
  return row
    ? {
        ...contactNotice(row, contactId, site),
        preview: row.preview ?? '',
        unread: row.unread ?? 0,
        inbound: row.inbound,
      }
    : null;
}

/**
 * Records a `message` notice sent (`recordSent`, the delivery's own UPDATE),
 * and queues another when the person wrote again after the notice was
 * written and their messages are still unread. A message stored while the
 * notice was being sent found it `sending` and queued nothing (one notice
 * waits at a time), and the text sent did not have it: without this, its
 * adviser was never told. The conversation's row is locked first, as storing
 * a message locks it before it queues its notice: a message being stored now
 * is either counted here or, stored after, finds this delivery `sent` and
 * queues its own.
 */
export async function laterMessagesNoticed(
  tx: Queryable,
  contactId: string,
  inbound: number,
  recordSent: () => Promise<boolean>,
): Promise<boolean> {
  await tx.query('SELECT 1 FROM whatsapp_conversations WHERE contact_id = $1 FOR UPDATE', [contactId]);
  if (!(await recordSent())) return false;
  // A statement of its own after the lock: it sees what a transaction that held the row committed.
  const { rows } = await tx.query<{ later: boolean }>(
    `SELECT w.unread_count > 0
            AND (SELECT count(*) FROM whatsapp_messages m WHERE m.contact_id = w.contact_id AND m.direction = 'in') > $2
            AS later
     FROM whatsapp_conversations w WHERE w.contact_id = $1`,
    [contactId, inbound],
  );
  if (rows[0]?.later) await queueInboundNotices(tx, [contactId]);
  return true;
}
