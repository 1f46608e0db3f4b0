import type { DeliveryView, NotificationChannel, NotifiedKind } from '../../lib/admin/notifications.ts';
import type { NotificationConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { channelOn } from './channels.ts';
import { enqueueDelivery, scheduleDeliveries } from './queue.ts';

// Deliveries as the panel's lists show them, and the panel's two actions. Light on purpose: the
// lead, contact and call functions read deliveries without bundling the channels' senders
// (the Notificaciones page's overview, which asks the channels, is overview.ts).

export interface DeliveryRecord {
  id: string;
  channel: NotificationChannel;
  status: DeliveryView['status'];
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  updated_at: Date;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function view(row: DeliveryRecord): DeliveryView {
  return {
    id: row.id,
    channel: row.channel,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: iso(row.next_attempt_at),
    sentAt: iso(row.sent_at),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export const COLUMNS =
  'd.id, d.channel, d.status, d.attempts, d.last_error, d.next_attempt_at, d.sent_at, d.updated_at';

/** Each lead's deliveries, by lead id, in channel order; `kind` null: leads of any kind (their ids are distinct). */
export async function deliveriesOfLeads(
  db: Queryable,
  kind: NotifiedKind | null,
  leadIds: readonly string[],
): Promise<Record<string, DeliveryView[]>> {
  if (leadIds.length === 0) return {};
  const { rows } = await db.query<DeliveryRecord & { lead_id: string }>(
    `SELECT d.lead_id, ${COLUMNS} FROM notification_deliveries d
     WHERE d.purpose = 'lead' AND ($1::text IS NULL OR d.lead_kind = $1) AND d.lead_id = ANY($2::uuid[])
     ORDER BY d.channel`,
    [kind, leadIds],
  );
  const byLead: Record<string, DeliveryView[]> = {};
  for (const row of rows) {
    byLead[row.lead_id] ??= [];
    byLead[row.lead_id]?.push(view(row));
  }
  return byLead;
}

/**
 * "Reintentar": a failed delivery, or one waiting for its next attempt, goes
 * now with a fresh count of attempts; not one that was sent or is being
 * sent, nor one whose channel is now off.
 */
export async function retryDelivery(
  db: Database,
  id: string,
  config: NotificationConfig,
): Promise<'queued' | 'not-retryable' | 'missing' | 'channel-off' | 'superseded'> {
  return db.transaction(async (tx) => {
    const channel = await tx.query<{ channel: NotificationChannel }>(
      'SELECT channel FROM notification_deliveries WHERE id = $1',
      [id],
    );
    const current = channel.rows[0];
    if (!current) return 'missing';
    // With its channel off nothing would send it: say so instead of "on its way".
    if (!channelOn(current.channel, config)) return 'channel-off';
    // A conversation's notice to a member waits once (notification_deliveries_message_key): a newer one waiting
    // says the same and more.
    const newer = await tx.query(
      `SELECT 1 FROM notification_deliveries d JOIN notification_deliveries o
         ON o.purpose = 'message' AND o.contact_id = d.contact_id AND o.recipient_id = d.recipient_id
        AND o.channel = d.channel AND o.status IN ('pending', 'sending') AND o.id <> d.id
       WHERE d.id = $1 AND d.purpose = 'message' AND d.status = 'failed'`,
      [id],
    );
    if (newer.rows.length > 0) return 'superseded';
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE notification_deliveries
       SET status = 'pending', attempts = 0, next_attempt_at = NULL, claimed_at = NULL, claim_id = NULL,
           updated_at = now()
       WHERE id = $1 AND status IN ('failed', 'pending')
       RETURNING id`,
      [id],
    );
    if (!rows[0]) return 'not-retryable';
    await scheduleDeliveries(tx, [id], null);
    return 'queued';
  });
}

/** "Enviar prueba": one test message through the channel. */
export async function sendTest(db: Database, channel: NotificationChannel): Promise<string> {
  const id = await db.transaction((tx) => enqueueDelivery(tx, 'test', channel));
  if (!id) throw new Error('test delivery not stored');
  return id;
}
