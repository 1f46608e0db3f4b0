import { Logger, type TaskList } from 'graphile-worker';
import pg, { type Pool, type PoolClient } from 'pg';
import { requireDatabaseUrl, type ServerConfig } from '../config.ts';
import { type Database, preparesStatements } from '../db/database.ts';
import { logJson } from '../log.ts';

// The runners' options and pool, and what features hand the runner (JobSource); the local
// worker and Netlify's drain (runner.ts) start them.

/**
 * Deliveries of one channel sent at once. Each channel that is on has a
 * runner of its own with this many slots (unless its lane says otherwise):
 * sends mostly wait on the network (each at most 15 s), and a channel that
 * hangs fills only its own slots, never another channel's.
 */
export const CONCURRENCY = 8;

/**
 * Connections of the worker's pool per runner: one its LISTEN keeps, and four
 * its eight slots borrow to take and finish jobs (for milliseconds, never
 * during a send; the old single runner had seven for sixteen slots). With
 * the three notification channels on, 15; every lane adds five.
 */
const CONNECTIONS_PER_RUNNER = 5;

const quietLogger = new Logger((scope) => (level, message) => {
  if (level === 'error' || level === 'warning') {
    logJson(level === 'error' ? 'error' : 'warn', { event: 'job_queue', scope: String(scope.label ?? ''), message });
  }
});

/**
 * One runner's work: its tasks, under a name of its own (a notification
 * channel, 'reminders', 'whatsapp_conversations'; the logs say it as `channel`).
 */
export interface Lane {
  channel: string;
  tasks: TaskList;
  /**
   * Its jobs run at once (CONCURRENCY unless said): 1 for work that only
   * writes to our database (Stripe's events), so a burst of it waits its turn
   * in the queue instead of taking the CPU from the requests being answered.
   */
  concurrency?: number;
}

/**
 * What a feature hands the job runner (decision 0056): the runners it needs
 * under this configuration, tasks it adds to another feature's runner when
 * that one runs (account e-mails ride the e-mail channel's), and its part of
 * the queue's upkeep (every half minute locally, at the start of each drain).
 * src/server/tasks.ts lists every feature's; the runner imports none.
 */
export interface JobSource {
  lanes?(config: ServerConfig): Lane[];
  joins?(config: ServerConfig): Lane[];
  maintain?(db: Database, config: ServerConfig, now: Date): Promise<void>;
}

/** The runners of every source, in order, each with the tasks other sources join to it. */
export function lanesOf(sources: readonly JobSource[], config: ServerConfig): Lane[] {
  const lanes = sources.flatMap((source) => source.lanes?.(config) ?? []);
  for (const join of sources.flatMap((source) => source.joins?.(config) ?? [])) {
    const lane = lanes.find((candidate) => candidate.channel === join.channel);
    if (lane) lane.tasks = { ...lane.tasks, ...join.tasks };
  }
  return lanes;
}

/** A runner's options, on the worker's pool (see workerPool), with `concurrency` slots. */
export function runnerOptions(config: ServerConfig, pgPool: Pool, concurrency = CONCURRENCY) {
  return {
    pgPool,
    // Neon's pooled endpoints (PgBouncer, transaction mode) cannot keep prepared statements.
    noPreparedStatements: !preparesStatements(requireDatabaseUrl(config)),
    concurrency,
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
          size: concurrency,
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
