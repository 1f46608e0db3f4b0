import type { Task, TaskList } from 'graphile-worker';
import { NOTIFICATION_CHANNELS, type NotificationChannel } from '../../lib/admin/notifications.ts';
import type { ServerConfig } from '../config.ts';
import { type Database, withDatabase } from '../db/database.ts';
import type { JobSource, Lane } from '../jobs/pool.ts';
import { logJson } from '../log.ts';
import { channelOn } from '../outbox/channels.ts';
import {
  deliverTask,
  enabledChannels,
  FRESH,
  FRESH_BATCH,
  FRESH_KEY_PREFIX,
  LEGACY_DELIVER_TASK,
  scheduleDeliveries,
  wakeFresh,
} from '../outbox/queue.ts';
import { REMINDER_TASK, remindersOn } from '../outbox/reminders.ts';
import { deliver, deliverFresh } from './deliver.ts';
import { sendPushReminder } from './push.ts';
import { PUSH_TASK, type PushJob, requeueLostReminders, runReminder } from './reminders.ts';
import { ensureDailySummary } from './summary.ts';

// The notifications' jobs, handed to the job runner (src/server/jobs/) by src/server/tasks.ts.

/**
 * The runners to start: one per channel that is on, taking only that
 * channel's deliveries (the account e-mails join the e-mail channel's:
 * team/account-mail.ts). Every runner also takes the jobs that finish
 * at once: one queued under the old single task is moved to its channel's
 * task, and a delivery whose channel is now off fails at once, saying why.
 */
function notificationLanes(config: ServerConfig): Lane[] {
  const send =
    (channel: NotificationChannel): Task =>
    async (payload) => {
      const { deliveryId, fresh } = payload as { deliveryId?: string; fresh?: boolean };
      if (fresh) await sendFresh(channel, config);
      else await withDatabase((db) => deliver(db, deliveryId as string, config), config);
    };
  const quick: TaskList = {
    async [LEGACY_DELIVER_TASK](payload) {
      const { deliveryId } = payload as { deliveryId: string };
      // This job is running, so add_jobs gives the key to a new job under the channel's task.
      await withDatabase((db) => db.transaction((tx) => scheduleDeliveries(tx, [deliveryId], null)), config);
    },
  };
  for (const channel of NOTIFICATION_CHANNELS) {
    if (!channelOn(channel, config.notifications)) quick[deliverTask(channel)] = send(channel);
  }
  const channels: Lane[] = enabledChannels(config.notifications).map((channel) => ({
    channel,
    tasks: {
      ...quick,
      [deliverTask(channel)]: send(channel),
    },
  }));
  // Reminders have a lane of their own when they have somewhere to go (e-mail or Web Push):
  // a push service that hangs holds up no lead's notification.
  if (config.notifications.email === null && config.push === null) return channels;
  const reminders: TaskList = {
    async [REMINDER_TASK](payload) {
      const { contactId } = payload as { contactId: string };
      await withDatabase((db) => runReminder(db, contactId, config), config);
    },
    async [PUSH_TASK](payload) {
      await withDatabase((db) => sendPushReminder(db, payload as PushJob, config), config);
    },
  };
  return [...channels, { channel: 'reminders', tasks: reminders }];
}

/** The channels whose fresh job is running in this process, and whether it was woken again meanwhile. */
const freshRuns = new Map<NotificationChannel, { again: boolean }>();

/**
 * A run of a channel's fresh job: FRESH_BATCH of its leads' deliveries at
 * a time, one run at a time in this process (a channel has at most that many
 * sends in flight). A job that starts while another runs leaves its work to
 * that one, which wakes a new job when it ends (as it does after a full
 * batch: more may wait; it is running, so the key goes to a new job).
 */
async function sendFresh(channel: NotificationChannel, config: ServerConfig): Promise<void> {
  const running = freshRuns.get(channel);
  if (running) {
    running.again = true;
    return;
  }
  const run = { again: false };
  freshRuns.set(channel, run);
  let claimed = 0;
  try {
    claimed = await withDatabase((db) => deliverFresh(db, channel, FRESH_BATCH, config), config);
  } finally {
    freshRuns.delete(channel);
    if (claimed === FRESH_BATCH || run.again) await withDatabase((db) => wakeFresh(db, [channel]), config);
  }
}

/**
 * The notifications' part of the queue's upkeep (jobs/runner.ts maintainQueue):
 * - a delivery still pending or sending without a live job (its job gave up
 *   after database errors) gets one, and a channel whose leads' deliveries
 *   wait without its fresh job (the process died between the answer and
 *   scheduleSoon) has it woken: nothing is forgotten;
 * - the daily summary is queued once it is 8:00 in Mérida;
 * - reminders left without their job get one.
 */
async function maintainNotifications(db: Database, config: ServerConfig, now: Date): Promise<void> {
  const orphans = await db.query<{ id: string; next_attempt_at: Date | null }>(
    `SELECT d.id, d.next_attempt_at FROM notification_deliveries d
     WHERE d.status IN ('pending', 'sending')
       -- One never tried is queued with its own job in its transaction: 10 s on, it has none.
       AND d.updated_at < now() - CASE WHEN d.status = 'pending' AND d.attempts = 0 AND d.claimed_at IS NULL
                                       THEN interval '10 seconds' ELSE interval '1 minute' END
       -- A lead's never tried are its channel's fresh job's (below).
       AND NOT (${FRESH})
       AND NOT EXISTS (
         SELECT 1 FROM graphile_worker.jobs j
         WHERE j.key = 'delivery:' || d.id AND j.attempts < j.max_attempts
       )
     LIMIT 500`,
  );
  if (orphans.rows.length > 0) {
    await db.transaction((tx) =>
      scheduleDeliveries(
        tx,
        orphans.rows.map((row) => row.id),
        null,
      ),
    );
    logJson('warn', { event: 'notification_requeued', deliveries: orphans.rows.length });
  }
  // A lead's deliveries wake their channel's fresh job just after its answer (scheduleSoon): one still
  // waiting 10 s on without that job (the process died between the answer and the wake) wakes it now.
  const asleep = await db.query<{ channel: string }>(
    `SELECT channel FROM unnest($1::text[]) AS channel
     WHERE EXISTS (
         SELECT 1 FROM notification_deliveries d
         WHERE ${FRESH} AND d.channel = channel.channel AND d.updated_at < now() - interval '10 seconds'
       )
       AND NOT EXISTS (
         SELECT 1 FROM graphile_worker.jobs j WHERE j.key = $2::text || channel.channel AND j.attempts < j.max_attempts
       )`,
    [NOTIFICATION_CHANNELS, FRESH_KEY_PREFIX],
  );
  if (asleep.rows.length > 0) {
    await wakeFresh(
      db,
      asleep.rows.map((row) => row.channel),
    );
    logJson('warn', { event: 'notification_woken', channels: asleep.rows.map((row) => row.channel).join(',') });
  }
  await ensureDailySummary(db, now, config.notifications.email !== null);
  if (remindersOn(config)) await requeueLostReminders(db);
}

/** What the notifications hand the job runner. */
export const notificationJobs: JobSource = { lanes: notificationLanes, maintain: maintainNotifications };
