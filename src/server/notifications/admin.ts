import {
  type ChannelView,
  type DeliveryEntry,
  type DeliveryView,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationsOverview,
  type NotifiedKind,
} from '../../lib/admin/notifications.ts';
import type { NotificationConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { CHANNEL_MODULES, channelOn } from './channels/index.ts';
import { enqueueDelivery, scheduleDeliveries } from './queue.ts';
import { SUMMARY_HOUR } from './summary.ts';

interface DeliveryRecord {
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

function view(row: DeliveryRecord): DeliveryView {
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

const COLUMNS = 'd.id, d.channel, d.status, d.attempts, d.last_error, d.next_attempt_at, d.sent_at, d.updated_at';

/** Each lead's deliveries, by lead id, in channel order. */
export async function deliveriesOfLeads(
  db: Queryable,
  kind: NotifiedKind,
  leadIds: readonly string[],
): Promise<Record<string, DeliveryView[]>> {
  if (leadIds.length === 0) return {};
  const { rows } = await db.query<DeliveryRecord & { lead_id: string }>(
    `SELECT d.lead_id, ${COLUMNS} FROM notification_deliveries d
     WHERE d.purpose = 'lead' AND d.lead_kind = $1 AND d.lead_id = ANY($2::uuid[])
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

/** NOTIFY_RETRY_DELAYS in words: "1 min, 5 min, 30 min, 2 h y 12 h". */
export function retriesText(delays: readonly number[]): string {
  const words = delays.map((seconds) =>
    seconds % 3600 === 0 && seconds > 0
      ? `${seconds / 3600} h`
      : seconds % 60 === 0 && seconds > 0
        ? `${seconds / 60} min`
        : `${seconds} s`,
  );
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} y ${words.at(-1)}` : (words[0] ?? '');
}

/** Where each channel sends, without what would let anyone else use it. */
function channelViews(config: NotificationConfig): ChannelView[] {
  return NOTIFICATION_CHANNELS.map((channel) => {
    const implementation = CHANNEL_MODULES[channel];
    const settings = implementation.settings(config);
    return { channel, on: settings !== null, target: settings === null ? null : implementation.target(settings) };
  });
}

/** The Notificaciones page: channels, the last delivery sent, recent failures, how many wait. */
export async function notificationsOverview(db: Queryable, config: NotificationConfig): Promise<NotificationsOverview> {
  const entries = (where: string, limit: number) =>
    db.query<
      DeliveryRecord & { purpose: DeliveryEntry['purpose']; contact_id: string | null; contact_name: string | null }
    >(
      `SELECT ${COLUMNS}, d.purpose, d.contact_id, c.name AS contact_name
       FROM notification_deliveries d LEFT JOIN contacts c ON c.id = d.contact_id
       WHERE ${where} ORDER BY ${where.includes('sent') ? 'd.sent_at' : 'd.updated_at'} DESC LIMIT ${limit}`,
    );
  const [last, failures, pending] = await Promise.all([
    entries(`d.status = 'sent'`, 1),
    entries(`d.status = 'failed'`, 20),
    db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM notification_deliveries WHERE status IN ('pending', 'sending')`,
    ),
  ]);
  const entry = (row: (typeof last.rows)[number]): DeliveryEntry => ({
    ...view(row),
    purpose: row.purpose,
    contactId: row.contact_id,
    contactName: row.contact_name,
  });
  return {
    channels: channelViews(config),
    lastSent: last.rows[0] ? entry(last.rows[0]) : null,
    failures: failures.rows.map(entry),
    pending: pending.rows[0]?.count ?? 0,
    summary: config.email ? `${SUMMARY_HOUR}:00 (hora de Mérida)` : null,
    retries: retriesText(config.retryDelays),
  };
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
): Promise<'queued' | 'not-retryable' | 'missing' | 'channel-off'> {
  return db.transaction(async (tx) => {
    const channel = await tx.query<{ channel: NotificationChannel }>(
      'SELECT channel FROM notification_deliveries WHERE id = $1',
      [id],
    );
    const current = channel.rows[0];
    if (!current) return 'missing';
    // With its channel off nothing would send it: say so instead of "on its way".
    if (!channelOn(current.channel, config)) return 'channel-off';
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
