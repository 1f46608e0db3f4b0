import { Logger, type Runner, run, type TaskList } from 'graphile-worker';
import pg, { type Pool } from 'pg';
import { getConfig, requireDatabaseUrl, type ServerConfig } from '../config.ts';
import { type Database, openDatabase, withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { deliver } from './deliver.ts';
import { DELIVER_TASK, enabledChannels, scheduleDeliveries } from './queue.ts';
import { ensureDailySummary } from './summary.ts';

/**
 * Deliveries sent at once by one worker. Sends mostly wait on the network
 * (each at most 15 s), so a hanging channel must not hold up the others.
 */
export const CONCURRENCY = 16;

const quietLogger = new Logger((scope) => (level, message) => {
  if (level === 'error' || level === 'warning') {
    logJson(level === 'error' ? 'error' : 'warn', { event: 'job_queue', scope: String(scope.label ?? ''), message });
  }
});

function taskList(config: ServerConfig): TaskList {
  return {
    async [DELIVER_TASK](payload) {
      const { deliveryId } = payload as { deliveryId: string };
      await withDatabase((db) => deliver(db, deliveryId, config), config);
    },
  };
}

/**
 * The runner's options: a URL for a pooler that cannot prepare statements,
 * and, for the long-running worker, a pool of ours (see workerPool).
 */
function runnerOptions(config: ServerConfig, pgPool?: Pool) {
  const connectionString = requireDatabaseUrl(config);
  return {
    ...(pgPool ? { pgPool } : { connectionString }),
    // Neon's pooled endpoints (PgBouncer, transaction mode) cannot keep prepared statements.
    noPreparedStatements: new URL(connectionString).hostname.includes('-pooler'),
    concurrency: CONCURRENCY,
    // Connections are held only to take and finish jobs, never during a send.
    maxPoolSize: 8,
    pollInterval: 1000,
    noHandleSignals: true,
    logger: quietLogger,
    // Unbatched, graphile-worker records a job's outcome in a promise nobody
    // awaits: a database gone at that moment is an unhandled rejection. Batched
    // (at once, delay 0), the failure reaches the runner, which stops, and the
    // supervisor below starts it again.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  };
}

/**
 * The long-running worker's connections, one pool for every runner it starts:
 * its error listeners stay for the life of the process. (A pool that
 * graphile-worker makes itself loses its listeners when its runner stops,
 * and a connection that reports the database's death after that would end
 * the process.)
 */
function workerPool(config: ServerConfig): Pool {
  const pool = new pg.Pool({ connectionString: requireDatabaseUrl(config), max: 8, connectionTimeoutMillis: 5_000 });
  const lost = (error: Error) =>
    logJson('warn', { event: 'notification_worker_connection_lost', error: error.message });
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/**
 * What keeps the queue honest, run every half minute by the local worker and
 * at the start of each Netlify drain:
 * - jobs locked longer than the lock timeout belong to a worker that died:
 *   unlock them (graphile-worker itself waits 4 hours);
 * - a delivery still pending or sending without a live job (its job gave up
 *   after database errors) gets one again: nothing is forgotten;
 * - the daily summary is queued once it is 8:00 in Mérida.
 */
export async function maintainQueue(db: Database, config: ServerConfig, now = new Date()): Promise<void> {
  const { lockTimeoutSeconds } = config.notifications;
  await db.query(
    `SELECT graphile_worker.force_unlock_workers(array(
       SELECT DISTINCT locked_by FROM graphile_worker.jobs
       WHERE locked_at < now() - make_interval(secs => $1) AND locked_by IS NOT NULL
     ))`,
    [lockTimeoutSeconds],
  );
  const orphans = await db.query<{ id: string; next_attempt_at: Date | null }>(
    `SELECT d.id, d.next_attempt_at FROM notification_deliveries d
     WHERE d.status IN ('pending', 'sending')
       AND d.updated_at < now() - interval '1 minute'
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
  await ensureDailySummary(db, now, config.notifications.email !== null);
}

export interface NotificationWorker {
  stop(): Promise<void>;
}

/** Pauses before starting the worker again after it stopped on a database fault: quick at first, then every 10 s. */
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000];

/**
 * The local server's worker: listens for new jobs (LISTEN/NOTIFY, so a lead's
 * notifications leave within a second) and keeps the queue honest. Nothing
 * runs when every channel is off.
 *
 * graphile-worker stops itself when it cannot record a job's outcome (the
 * database went away): its runner's promise rejects. The worker is then
 * started again, with growing pauses, until the database answers; what was
 * in flight is retried from the queue (a send accepted just as the database
 * died may repeat, with the same delivery id).
 */
export async function startNotificationWorker(config: ServerConfig = getConfig()): Promise<NotificationWorker | null> {
  if (enabledChannels(config.notifications).length === 0) return null;
  let stopped = false;
  const pool = workerPool(config);
  let runner = await run(runnerOptions(config, pool), taskList(config));
  let restarting: Promise<void> = Promise.resolve();

  const restart = async () => {
    for (let attempt = 1; !stopped; attempt += 1) {
      await new Promise((resolve) =>
        setTimeout(resolve, RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length) - 1]),
      );
      if (stopped) return;
      try {
        runner = await run(runnerOptions(config, pool), taskList(config));
      } catch (error) {
        logJson('warn', { event: 'notification_worker_restart_failed', attempt, error: (error as Error).message });
        continue;
      }
      logJson('warn', { event: 'notification_worker_restarted', attempt });
      supervise(runner);
      if (stopped) await runner.stop().catch(() => {});
      return;
    }
  };
  const supervise = (current: Runner) => {
    current.promise.then(
      () => {
        if (!stopped) {
          logJson('error', { event: 'notification_worker_stopped', error: 'stopped without being asked' });
          restarting = restart();
        }
      },
      (error: unknown) => {
        if (stopped) return;
        logJson('error', { event: 'notification_worker_stopped', error: (error as Error).message });
        restarting = restart();
      },
    );
  };
  supervise(runner);

  let maintaining: Promise<void> = Promise.resolve();
  const maintain = () => {
    maintaining = withDatabase((db) => maintainQueue(db, config), config).catch((error: unknown) =>
      logJson('error', { event: 'notification_maintenance_failed', error: (error as Error).message }),
    );
    return maintaining;
  };
  await maintain();
  // Often enough to take over a dead worker's deliveries soon after their lock times out.
  const timer = setInterval(maintain, Math.min(30, config.notifications.lockTimeoutSeconds) * 1000);
  timer.unref();
  return {
    /** Stops taking jobs, lets the sends in flight finish; never throws (shutdown goes on). */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await maintaining;
      await restarting;
      await runner
        .stop()
        .catch((error: unknown) =>
          logJson('warn', { event: 'notification_worker_stop', error: (error as Error).message }),
        );
      await pool.end().catch(() => {});
    },
  };
}

/**
 * One pass over the queue for a platform that gives a few seconds per call
 * (Netlify's scheduled function, every minute): keeps the queue honest, then
 * works until nothing is due or `budgetMs` has passed, and waits for the
 * deliveries in flight (each bounded by its channel's timeout).
 */
export async function drainNotifications(
  budgetMs: number,
  config: ServerConfig = getConfig(),
): Promise<{ processed: number }> {
  if (enabledChannels(config.notifications).length === 0) return { processed: 0 };
  const { db, release } = await openDatabase(config);
  try {
    await maintainQueue(db, config);
    // Most minutes nothing is due: answer without starting a worker.
    if ((await dueJobs(db)) === 0) return { processed: 0 };
    return await drainWith(db, budgetMs, config);
  } finally {
    await release();
  }
}

/** Jobs of ours that are due and not taken. */
async function dueJobs(db: Database): Promise<number> {
  const { rows } = await db.query<{ due: number }>(
    `SELECT count(*)::int AS due FROM graphile_worker.jobs
     WHERE task_identifier = $1 AND run_at <= now() AND locked_at IS NULL AND attempts < max_attempts`,
    [DELIVER_TASK],
  );
  return rows[0]?.due ?? 0;
}

async function drainWith(db: Database, budgetMs: number, config: ServerConfig): Promise<{ processed: number }> {
  const runner: Runner = await run(runnerOptions(config), taskList(config));
  let processed = 0;
  let running = 0;
  runner.events.on('job:start', () => {
    running += 1;
  });
  runner.events.on('job:complete', () => {
    running -= 1;
    processed += 1;
  });
  const deadline = Date.now() + budgetMs;
  try {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (running > 0) continue;
      if ((await dueJobs(db)) === 0 && running === 0) break;
    }
  } finally {
    await runner.stop();
  }
  return { processed };
}
