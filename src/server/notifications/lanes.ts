import { Logger, type Task, type TaskList } from 'graphile-worker';
import pg, { type Pool, type PoolClient } from 'pg';
import { NOTIFICATION_CHANNELS, type NotificationChannel } from '../../lib/admin/notifications.ts';
import { requireDatabaseUrl, type ServerConfig } from '../config.ts';
import { withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { ACCOUNT_EMAIL_TASK, runAccountEmail } from '../team/account-mail.ts';
import { conversationTasks } from '../whatsapp/jobs.ts';
import { channelOn } from './channels/configured.ts';
import { deliver, deliverFresh } from './deliver.ts';
import { sendPushReminder } from './push.ts';
import {
  deliverTask,
  enabledChannels,
  FRESH_BATCH,
  LEGACY_DELIVER_TASK,
  scheduleDeliveries,
  wakeFresh,
} from './queue.ts';
import { PUSH_TASK, type PushJob, REMINDER_TASK, runReminder } from './reminders.ts';

// Each channel's graphile-worker runner (its tasks, options and pool), from the one list of
// channels; the local worker and Netlify's drain (worker.ts) start them.

/**
 * Deliveries of one channel sent at once. Each channel that is on has a
 * runner of its own with this many slots: sends mostly wait on the network
 * (each at most 15 s), and a channel that hangs fills only its own slots,
 * never another channel's.
 */
export const CONCURRENCY = 8;

/**
 * Connections of the worker's pool per runner: one its LISTEN keeps, and four
 * its eight slots borrow to take and finish jobs (for milliseconds, never
 * during a send; the old single runner had seven for sixteen slots). With
 * every channel on, 15.
 */
const CONNECTIONS_PER_RUNNER = 5;

const quietLogger = new Logger((scope) => (level, message) => {
  if (level === 'error' || level === 'warning') {
    logJson(level === 'error' ? 'error' : 'warn', { event: 'job_queue', scope: String(scope.label ?? ''), message });
  }
});

/** One runner's work: one channel's tasks, or the reminders' (decision 0035). */
export interface Lane {
  channel: NotificationChannel | 'reminders' | 'whatsapp_conversations';
  tasks: TaskList;
}

/**
 * The runners to start: one per channel that is on, taking only that
 * channel's deliveries (and, for e-mail, the account e-mails, which go
 * through the same SMTP server). Every runner also takes the jobs that finish
 * at once: one queued under the old single task is moved to its channel's
 * task, and a delivery whose channel is now off fails at once, saying why.
 */
export function lanes(config: ServerConfig): Lane[] {
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
      ...(channel === 'email' ? { [ACCOUNT_EMAIL_TASK]: (payload: unknown) => runAccountEmail(payload, config) } : {}),
    },
  }));
  // WhatsApp conversations (decision 0039): their webhook's events and our messages, in a lane of their own.
  if (config.whatsapp !== null) channels.push({ channel: 'whatsapp_conversations', tasks: conversationTasks(config) });
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

/** A runner's options, on the worker's pool (see workerPool). */
export function runnerOptions(config: ServerConfig, pgPool: Pool) {
  return {
    pgPool,
    // Neon's pooled endpoints (PgBouncer, transaction mode) cannot keep prepared statements.
    noPreparedStatements: new URL(requireDatabaseUrl(config)).hostname.includes('-pooler'),
    concurrency: CONCURRENCY,
    pollInterval: 1000,
    noHandleSignals: true,
    logger: quietLogger,
    // Unbatched, graphile-worker records a job's outcome in a promise nobody
    // awaits: a database gone at that moment is an unhandled rejection. Batched
    // (at once, delay 0), the failure reaches the runner, which stops, and the
    // supervisor below starts it again.
    preset: {
      worker: {
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
        // Jobs are fetched for the runner's slots together (decision 0045): one search of the queue per
        // wake-up, not one per idle slot; a search that finds nothing keeps the runner from searching again
        // for about 100 ms, however many jobs of other runners are added meanwhile (each add wakes every
        // runner: at a thousand leads a second, the idle ones' searches cost a tenth of the leads stored).
        // A job fetched waits for a slot at most a quarter of the lock timeout, then goes back to the queue:
        // with its send (half the timeout at most), the queue's upkeep never takes it for a dead worker's.
        localQueue: {
          size: CONCURRENCY,
          ttl: config.notifications.lockTimeoutSeconds * 250,
          refetchDelay: { durationMs: 100, maxAbortThreshold: 1000 },
        },
      },
    },
  };
}

/** pg-pool's maker of a checked-out client's `release` (not in its types). */
type ReleaseMaker = (this: Pool, client: PoolClient, idleListener: unknown) => (error?: Error | boolean) => void;
const releaseOnce = (pg.Pool.prototype as unknown as { _releaseOnce: ReleaseMaker })._releaseOnce;

/**
 * pg's pool, where releasing a client a second time is ignored instead of
 * thrown. When the database dies, graphile-worker's LISTEN client can be
 * released both by graphile-worker's own error handler (which does not await
 * it) and by the runner's shutdown that the lost connection started: the
 * second release threw "Release called on client which has already been
 * released to the pool" as an unhandled rejection (database-crash.test.ts,
 * once in a full run). The client is back in the pool after the first.
 */
export class ForgivingPool extends pg.Pool {}
(ForgivingPool.prototype as unknown as { _releaseOnce: ReleaseMaker })._releaseOnce = function (client, idleListener) {
  const release = releaseOnce.call(this, client, idleListener);
  let released = false;
  return (error) => {
    if (released) return;
    released = true;
    release(error);
  };
};

/**
 * The worker's connections, one pool for every runner it starts (each
 * channel's, and each one started again): its error listeners stay for the
 * pool's whole life. (A pool that graphile-worker makes itself loses its
 * listeners when its runner stops, and a connection that reports the
 * database's death after that would end the process.)
 */
export function workerPool(config: ServerConfig, runners: number, onLost: () => void = () => {}): Pool {
  const pool = new ForgivingPool({
    connectionString: requireDatabaseUrl(config),
    max: runners * CONNECTIONS_PER_RUNNER,
    connectionTimeoutMillis: 5_000,
  });
  const lost = (error: Error) => {
    logJson('warn', { event: 'notification_worker_connection_lost', error: error.message });
    onLost();
  };
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}
