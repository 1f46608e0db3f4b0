import { type Runner, run } from 'graphile-worker';
import type { ServerConfig } from '../config.ts';
import { type Database, openDatabase, withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { type JobSource, type Lane, lanesOf, runnerOptions, workerPool } from './pool.ts';

/** The slots of each channel's runner (tests read it). */
export { CONCURRENCY } from './pool.ts';

/**
 * What keeps the queue honest, run every half minute by the local worker and
 * at the start of each Netlify drain: jobs locked longer than the lock
 * timeout belong to a worker that died: unlock them (graphile-worker itself
 * waits 4 hours); then each source's own upkeep, in order (a delivery or a
 * WhatsApp event left without its job gets one, the daily summary is queued...).
 */
export async function maintainQueue(
  db: Database,
  config: ServerConfig,
  sources: readonly JobSource[],
  now = new Date(),
): Promise<void> {
  const { lockTimeoutSeconds } = config.notifications;
  await db.query(
    `SELECT graphile_worker.force_unlock_workers(array(
       SELECT DISTINCT locked_by FROM graphile_worker.jobs
       WHERE locked_at < now() - make_interval(secs => $1) AND locked_by IS NOT NULL
     ))`,
    [lockTimeoutSeconds],
  );
  for (const source of sources) await source.maintain?.(db, config, now);
}

export interface NotificationWorker {
  stop(): Promise<void>;
}

interface SupervisedRunner extends NotificationWorker {
  /** Stops the runner and starts a new one once the database answers (its connections were lost). */
  recycle(): void;
}

/** Pauses before starting a runner again after it stopped on a database fault: quick at first, then every 10 s. */
const RESTART_DELAYS_MS = [1000, 2000, 5000, 10_000];
/** How long a runner that lost its database may take to stop before it is left behind. */
const STOP_BOUND_MS = 5000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts one channel's runner and keeps it running. graphile-worker stops
 * itself when it cannot record a job's outcome (the database went away): its
 * runner's promise rejects. But a runner whose database died while it was
 * idle, or while recording outcomes, can also stay up and never take a job
 * again (seen in tests/api/database-crash.test.ts: a lead stored after the
 * restart waited for its webhook past a minute). So a lost connection
 * recycles the runner too: stopped (or left behind after 5 s), then started
 * again with growing pauses until the database answers. What was in flight
 * is retried from the queue (a send accepted just as the database died may
 * repeat, with the same delivery id); jobs a lost runner kept locked are
 * unlocked by the queue's upkeep.
 */
async function superviseRunner(channel: Lane['channel'], start: () => Promise<Runner>): Promise<SupervisedRunner> {
  let stopped = false;
  let runner = await start();
  let restarting: Promise<void> | null = null;

  const restart = () => {
    if (stopped || restarting) return;
    const previous = runner;
    restarting = (async () => {
      await Promise.race([previous.stop().catch(() => {}), pause(STOP_BOUND_MS)]);
      for (let attempt = 1; !stopped; attempt += 1) {
        await pause(RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length) - 1] as number);
        if (stopped) return;
        try {
          runner = await start();
        } catch (error) {
          logJson('warn', {
            event: 'notification_worker_restart_failed',
            channel,
            attempt,
            error: (error as Error).message,
          });
          continue;
        }
        logJson('warn', { event: 'notification_worker_restarted', channel, attempt });
        watch(runner);
        return;
      }
    })().finally(() => {
      restarting = null;
    });
  };
  // Only the current runner's end matters: one being recycled ends because it was asked to.
  const watch = (current: Runner) => {
    current.promise.then(
      () => {
        if (current !== runner || stopped || restarting) return;
        logJson('error', { event: 'notification_worker_stopped', channel, error: 'stopped without being asked' });
        restart();
      },
      (error: unknown) => {
        if (current !== runner || stopped || restarting) return;
        logJson('error', { event: 'notification_worker_stopped', channel, error: (error as Error).message });
        restart();
      },
    );
  };
  watch(runner);
  return {
    recycle: restart,
    async stop() {
      stopped = true;
      await restarting;
      await runner
        .stop()
        .catch((error: unknown) =>
          logJson('warn', { event: 'notification_worker_stop', channel, error: (error as Error).message }),
        );
    },
  };
}

/**
 * The local server's worker: one runner per channel that is on, each with
 * its own slots (so an SMTP server that hangs delays no webhook or WhatsApp
 * message), all on one pool; each listens for new jobs (LISTEN/NOTIFY, so a
 * lead's notifications leave within a second) and is started again if it
 * stops on a database fault. It also keeps the queue honest. Nothing runs
 * when every channel is off.
 */
export async function startWorker(
  config: ServerConfig,
  sources: readonly JobSource[],
): Promise<NotificationWorker | null> {
  const work = lanesOf(sources, config);
  if (work.length === 0) return null;
  const runners: SupervisedRunner[] = [];
  // A connection of the worker lost (the database died or restarted): every runner starts afresh.
  const pool = workerPool(config, work.length, () => {
    for (const runner of runners) runner.recycle();
  });
  try {
    for (const lane of work) {
      runners.push(
        await superviseRunner(lane.channel, () => run(runnerOptions(config, pool, lane.concurrency), lane.tasks)),
      );
    }
  } catch (error) {
    await Promise.all(runners.map((runner) => runner.stop()));
    await pool.end().catch(() => {});
    throw error;
  }

  let maintaining: Promise<void> = Promise.resolve();
  const maintain = () => {
    maintaining = withDatabase((db) => maintainQueue(db, config, sources), config).catch((error: unknown) =>
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
      clearInterval(timer);
      await maintaining;
      await Promise.all(runners.map((runner) => runner.stop()));
      await pool.end().catch(() => {});
    },
  };
}

/**
 * One pass over the queue for a platform that gives a few seconds per call
 * (Netlify's scheduled function, every minute): keeps the queue honest, then
 * works until nothing is due or `budgetMs` has passed, and waits for the
 * deliveries in flight (each bounded by its channel's timeout). Each channel
 * gets its own runner here too, so a hanging one does not use up the pass.
 */
export async function drain(
  budgetMs: number,
  config: ServerConfig,
  sources: readonly JobSource[],
): Promise<{ processed: number }> {
  const work = lanesOf(sources, config);
  if (work.length === 0) return { processed: 0 };
  const tasks = [...new Set(work.flatMap((lane) => Object.keys(lane.tasks)))];
  const { db, release } = await openDatabase(config);
  try {
    await maintainQueue(db, config, sources);
    // Most minutes nothing is due: answer without starting a worker.
    if ((await dueJobs(db, tasks)) === 0) return { processed: 0 };
    return await drainWith(db, budgetMs, config, work, tasks);
  } finally {
    await release();
  }
}

/** Jobs of these tasks that are due and not taken. */
async function dueJobs(db: Database, tasks: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ due: number }>(
    `SELECT count(*)::int AS due FROM graphile_worker.jobs
     WHERE task_identifier = ANY($1::text[]) AND run_at <= now() AND locked_at IS NULL AND attempts < max_attempts`,
    [tasks],
  );
  return rows[0]?.due ?? 0;
}

async function drainWith(
  db: Database,
  budgetMs: number,
  config: ServerConfig,
  work: readonly Lane[],
  tasks: readonly string[],
): Promise<{ processed: number }> {
  const pool = workerPool(config, work.length);
  const runners: Runner[] = [];
  let processed = 0;
  let running = 0;
  try {
    for (const lane of work) {
      const runner = await run(runnerOptions(config, pool, lane.concurrency), lane.tasks);
      runners.push(runner);
      // A runner that stops on a database fault ends this pass; the next minute's starts afresh.
      runner.promise.catch((error: unknown) =>
        logJson('warn', {
          event: 'notification_drain_stopped',
          channel: lane.channel,
          error: (error as Error).message,
        }),
      );
      runner.events.on('job:start', () => {
        running += 1;
      });
      runner.events.on('job:complete', () => {
        running -= 1;
        processed += 1;
      });
    }
    const deadline = Date.now() + budgetMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (running > 0) continue;
      if ((await dueJobs(db, tasks)) === 0 && running === 0) break;
    }
  } finally {
    await Promise.all(runners.map((runner) => runner.stop().catch(() => {})));
    await pool.end().catch(() => {});
  }
  return { processed };
}
