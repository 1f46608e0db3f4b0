import {
  type DeliveryPurpose,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotifiedKind,
} from '../../lib/admin/notifications.ts';
import { getConfig, type NotificationConfig } from '../config.ts';
import { type Queryable, withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { coalesced } from '../queue/coalesce.ts';
import { channelOn } from './channels.ts';

/** The tasks' common prefix: a delivery's task is this and its channel. */
export const TASK_PREFIX = 'deliver_notification_';

/**
 * The graphile-worker task that sends one delivery of `channel`. One task per
 * channel, so each channel has workers of its own: a channel that hangs (an
 * SMTP server that never answers) holds up only its own deliveries.
 */
export const deliverTask = (channel: NotificationChannel): string => `${TASK_PREFIX}${channel}`;

/** The one task every delivery had before (#23): jobs still queued under it are moved to their channel's task. */
export const LEGACY_DELIVER_TASK = 'deliver_notification';

/** The channels that are on (their variables are set). */
export function enabledChannels(config: NotificationConfig = getConfig().notifications): NotificationChannel[] {
  return NOTIFICATION_CHANNELS.filter((channel) => channelOn(channel, config));
}

/**
 * Queues one delivery per channel that is on, for a lead just stored, inside
 * the lead's transaction (`tx`): either the lead and its notifications are
 * stored, or neither. One statement: queue_lead_notifications() (its live
 * body in db/schema.sql), used for a call's lead; it and a form's lead
 * (store_leads_together()) write the rows through record_lead_deliveries().
 * Returns the deliveries' ids.
 */
export async function enqueueLeadNotifications(
  tx: Queryable,
  kind: NotifiedKind,
  leadId: string,
  contactId: string,
): Promise<string[]> {
  const channels = enabledChannels();
  if (channels.length === 0) return [];
  const { rows } = await tx.query<{ ids: string[] | null }>(
    'SELECT queue_lead_notifications($1, $2, $3, $4, $5) AS ids',
    [kind, leadId, contactId, channels, TASK_PREFIX],
  );
  return rows[0]?.ids ?? [];
}

/**
 * Deliveries never tried that one run of a channel's fresh job sends, side
 * by side (so the run lasts one send at most, bounded like any): the
 * channel's sends in flight, as many as its runner's slots were before.
 */
export const FRESH_BATCH = 8;

/**
 * A delivery `d` of a lead never tried: its channel's fresh job sends it (SQL).
 * claim_fresh_deliveries() (migration 0026) claims by the same condition.
 */
export const FRESH = `d.status = 'pending' AND d.attempts = 0 AND d.claimed_at IS NULL AND d.next_attempt_at IS NULL
  AND d.purpose = 'lead'`;

/** A channel's fresh job's key is this and the channel: one waiting per channel at most, however many leads arrive. */
export const FRESH_KEY_PREFIX = 'fresh:';

/**
 * Wakes the fresh job of each channel (decision 0045): the deliveries a lead
 * stored with it (store_leads_together() records them without jobs) are sent by their
 * channel's one fresh job, which takes the oldest never tried, a batch at a
 * time, until none is left (deliverFresh). Adding it while one waits only
 * moves that one (its key); while one runs, it adds the next, which claims
 * other deliveries. A busy minute's thousands of leads leave a job or two
 * per channel in the queue, not one per delivery, and the queue every
 * runner searches stays short. A delivery that fails, or one taken over, gets a job of its own
 * (scheduleDeliveries).
 */
export async function wakeFresh(db: Queryable, channels: readonly string[]): Promise<void> {
  if (channels.length === 0) return;
  await db.query(
    `SELECT count(*) FROM graphile_worker.add_jobs(array(
       SELECT ROW($1::text || channel, '{"fresh": true}'::json, NULL, now(), 3, $2::text || channel, NULL, NULL)::graphile_worker.job_spec
       FROM unnest($3::text[]) AS channel
     ))`,
    [TASK_PREFIX, FRESH_KEY_PREFIX, [...new Set(channels)]],
  );
}

/**
 * The least time between two wakes by one process. Each wake NOTIFYs, and
 * each NOTIFY sets every idle runner's slots looking for work: at a thousand
 * leads a second, waking after every answer cost a tenth of the leads
 * stored (bench:api). A lead's notifications leave at most this much later.
 */
const WAKE_GAP_MS = 50;

/**
 * Wakes the fresh jobs of the channels of deliveries just stored with their
 * lead, right after the answer and for many leads at once: one add_jobs, so
 * one NOTIFY, for every lead answered meanwhile, and one such transaction
 * at a time (decisions 0030, 0045). Resolves when done; never throws: a
 * delivery left waiting (an error here, the process killed) is found by
 * maintainQueue, which wakes its channel.
 */
export const scheduleSoon = coalesced<NotificationChannel>(
  async (channels) => {
    try {
      await withDatabase((db) => wakeFresh(db, channels));
    } catch (error) {
      logJson('warn', {
        event: 'notification_jobs_deferred',
        channels: [...new Set(channels)].join(','),
        error: (error as Error).message,
      });
    }
  },
  { gapMs: WAKE_GAP_MS },
);

/**
 * Adds (or moves) the job of each delivery, under its channel's task: one job
 * per delivery, keyed by its id, so scheduling again replaces a waiting job
 * instead of adding a second (a running one keeps going, and the new job
 * finds the outcome). `runAt` null means now. An id with no delivery (its
 * lead was erased) gets no job.
 */
export async function scheduleDeliveries(tx: Queryable, ids: readonly string[], runAt: Date | null): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    `SELECT count(*) FROM graphile_worker.add_jobs(array(
       ${jobSpecs('notification_deliveries AS delivery WHERE delivery.id = ANY($2::uuid[])', '$1::text', 'coalesce($3::timestamptz, now())')}
     ))`,
    [TASK_PREFIX, ids, runAt?.toISOString() ?? null],
  );
}

/**
 * The job of each delivery (`id`, `channel`) in `source`: its channel's task
 * (`prefix` || channel), due at `runAt`, keyed by the delivery so adding it
 * again replaces a waiting job. One add_jobs call for all of them: one
 * NOTIFY per transaction instead of one per job. queue_lead_notifications()
 * builds the same job in SQL.
 */
function jobSpecs(source: string, prefix: string, runAt: string): string {
  return `SELECT ROW(${prefix} || delivery.channel, json_build_object('deliveryId', delivery.id), NULL, ${runAt}, 3,
                     'delivery:' || delivery.id, NULL, NULL)::graphile_worker.job_spec
          FROM ${source}`;
}

/** Queues a delivery that is not about a lead ("Enviar prueba", the daily summary); returns its id or null. */
export async function enqueueDelivery(
  tx: Queryable,
  purpose: Exclude<DeliveryPurpose, 'lead'>,
  channel: NotificationChannel,
  summaryDay: string | null = null,
): Promise<string | null> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO notification_deliveries (purpose, channel, summary_day) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING id`,
    [purpose, channel, summaryDay],
  );
  const id = rows[0]?.id ?? null;
  if (id) await scheduleDeliveries(tx, [id], null);
  return id;
}
