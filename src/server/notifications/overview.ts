import {
  type ChannelView,
  type DeliveryEntry,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationsOverview,
} from '../../lib/admin/notifications.ts';
import type { NotificationConfig } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { channelSettings } from '../outbox/channels.ts';
import { COLUMNS, type DeliveryRecord, view } from '../outbox/deliveries.ts';
import { CHANNEL_MODULES } from './channels/index.ts';
import { SUMMARY_HOUR } from './summary.ts';

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
  return NOTIFICATION_CHANNELS.map((channel) => channelView(channel, config));
}

function channelView<C extends NotificationChannel>(channel: C, config: NotificationConfig): ChannelView {
  const settings = channelSettings(channel, config);
  return {
    channel,
    on: settings !== null,
    target: settings === null ? null : CHANNEL_MODULES[channel].target(settings),
  };
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
