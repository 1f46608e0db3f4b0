import { createHash } from 'node:crypto';
import type { Pool as PgPool } from 'pg';
import { getConfig, requireDatabaseUrl, type ServerConfig } from '../config.ts';
import { logJson } from '../log.ts';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
}

export interface Database extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The pool behind this handle when it outlives the request (the `pg`
   * driver's, shared by the process's requests); absent with Neon's, whose
   * pool is the request's own. Work of several requests may share it
   * (src/server/leads/batch.ts).
   */
  shared?: object;
}

/** SQLSTATEs after which a whole transaction is tried again: deadlock_detected, serialization_failure. */
const TRY_AGAIN = new Set(['40P01', '40001']);

/**
 * `db.transaction(work)`, tried again from the start (at most `attempts`
 * times) when PostgreSQL ends it as one side of a deadlock or a
 * serialization failure: what PostgreSQL asks of its callers. `work` must do
 * nothing outside the database that a second run would repeat.
 */
export async function transactionRetried<T>(
  db: Database,
  work: (tx: Queryable) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt < attempts && TRY_AGAIN.has((error as { code?: string }).code ?? '')) continue;
      throw error;
    }
  }
}

/** What `pg.Pool` and Neon's pg-compatible `Pool` have in common. */
interface PoolLike {
  query(text: string, values?: unknown[]): Promise<QueryResult<never>>;
  connect(callback: (error: Error | undefined, client: PooledClient | undefined) => void): void;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

interface PooledClient {
  query: PoolLike['query'];
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * A client of the pool, already listening for its connection's death. A
 * checked-out client has no listener of the pool's: the server dying emits
 * 'error' on it, which would otherwise end the process. The listener is
 * attached in the pool's callback, synchronously: the same chunk of bytes
 * that hands a client over can carry the server's "terminating connection",
 * before a promise's continuation would run.
 */
function checkOut(
  pool: PoolLike,
): Promise<{ client: PooledClient; lost(): Error | undefined; listener(error: Error): void }> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error || !client) {
        reject(error ?? new Error('no client'));
        return;
      }
      let lost: Error | undefined;
      const listener = (cause: Error) => {
        lost = cause;
        logJson('error', { event: 'db_client_lost', error: cause.message });
      };
      client.on('error', listener);
      resolve({ client, lost: () => lost, listener });
    });
  });
}

/**
 * Whether statements may be prepared on the connections of `databaseUrl`:
 * not through a PgBouncer in transaction mode (Neon's `-pooler` endpoints),
 * where the next statement may reach another server connection.
 */
export function preparesStatements(databaseUrl: string): boolean {
  return !new URL(databaseUrl).hostname.includes('-pooler');
}

/**
 * Marks a statement whose best plan depends on its values (decision 0085): a
 * search for a word every fourth contact has reads the state's index and
 * stops at the cap, a rare word reads the trigram index, and one plan kept
 * for both is slow for one of them. prepared() sends such a statement
 * unnamed, so PostgreSQL plans it for the values of each run (about 0.3 ms).
 */
const PLANNED_EACH_RUN = '/* planned each run */';
export const plannedEachRun = (text: string): string => `${PLANNED_EACH_RUN} ${text}`;

/** Distinct statements prepared by this process, at most (each connection keeps those it ran). */
export const PREPARED_STATEMENTS_MAX = 500;
const statementNames = new Map<string, string>();

/**
 * A statement with values as a named prepared statement (decision 0080):
 * PostgreSQL parses it once per connection, and after a few runs keeps its
 * plan, instead of parsing and planning it at every run (a booking's dozen
 * statements spent about a fifth of their time so). Its name is its text's
 * hash, so every connection of the pool knows it by the same name. Beyond
 * PREPARED_STATEMENTS_MAX distinct texts (a text built with a varying
 * number of placeholders), a statement runs unnamed, as before. A statement
 * without values keeps the simple protocol (it may hold several commands).
 */
function prepared(text: string, values: unknown[]): { name?: string; text: string; values: unknown[] } {
  if (text.startsWith(PLANNED_EACH_RUN)) return { text, values };
  let name = statementNames.get(text);
  if (!name && statementNames.size < PREPARED_STATEMENTS_MAX) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name ? { name, text, values } : { text, values };
}

type Run = (text: string, values?: unknown[]) => Promise<QueryResult<never>>;

/** `run`, with a statement that has values prepared when `prepare` (see prepared()). */
function preparing(run: PoolLike['query'], prepare: boolean): Run {
  if (!prepare) return run;
  const runConfig = run as unknown as (config: ReturnType<typeof prepared>) => Promise<QueryResult<never>>;
  return (text, values) => (values ? runConfig(prepared(text, values)) : run(text));
}

function wrap(pool: PoolLike, shared = false, prepare = false): Database {
  const query = preparing(pool.query.bind(pool), prepare);
  return {
    ...(shared ? { shared: pool } : {}),
    query: (text, values) => query(text, values),
    async transaction(work) {
      const { client, lost, listener } = await checkOut(pool);
      try {
        await client.query('BEGIN');
        const inside = preparing(client.query.bind(client), prepare);
        const result = await work({ query: (text, values) => inside(text, values) });
        await client.query('COMMIT');
        client.removeListener('error', listener);
        client.release();
        return result;
      } catch (error) {
        const healthy =
          !lost() &&
          (await client.query('ROLLBACK').then(
            () => !lost(),
            () => false,
          ));
        if (healthy) {
          client.removeListener('error', listener);
          client.release();
        } else {
          // Released with an error, the client is closed rather than returned to the
          // pool; the listener stays, for whatever the dead connection still emits.
          client.release(lost() ?? (error instanceof Error ? error : true));
        }
        throw error;
      }
    },
  };
}

const STATEMENT_TIMEOUT_MS = 10_000;

/** The `pg` pools whose connections keep statements prepared: decided once, when the pool is made. */
const preparingPools = new WeakSet<object>();

// Promises, so that the first calls at once share one pool.
let sharedPgPool: Promise<PgPool> | undefined;
let queuePgPool: Promise<PgPool> | undefined;

/**
 * Connections of the queue's heavy work (a webhook delivery's processing),
 * a pool apart from the requests': a burst of deliveries being processed
 * never holds the connections their acknowledgements and the panel need.
 */
export const QUEUE_CONNECTIONS = 2;

async function newPgPool(config: ServerConfig, max: number): Promise<PgPool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: requireDatabaseUrl(config),
    max,
    connectionTimeoutMillis: config.databaseConnectTimeoutMs,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', (error) => logJson('error', { event: 'db_idle_client_error', error: error.message }));
  if (preparesStatements(requireDatabaseUrl(config))) preparingPools.add(pool);
  return pool;
}

function pgPool(config: ServerConfig): Promise<PgPool> {
  sharedPgPool ??= newPgPool(config, config.databasePoolMax);
  return sharedPgPool;
}

async function neonPool(config: ServerConfig): Promise<PoolLike> {
  const { Pool, neonConfig } = await import('@neondatabase/serverless');
  if (config.neonWsProxy) {
    // A local WebSocket relay in front of a plain PostgreSQL (tests, local development).
    const proxy = config.neonWsProxy;
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({
    connectionString: requireDatabaseUrl(config),
    connectionTimeoutMillis: config.databaseConnectTimeoutMs,
  });
  pool.on('error', (error: Error) => logJson('error', { event: 'db_neon_client_error', error: error.message }));
  return pool as unknown as PoolLike;
}

/**
 * Runs `work` with a database handle for one request.
 *
 * With `pg` the pool lives as long as the process. With Neon's driver a pool
 * is opened and closed inside each request, as serverless WebSockets must not
 * outlive the invocation that opened them.
 */
export async function withDatabase<T>(work: (db: Database) => Promise<T>, config = getConfig()): Promise<T> {
  const { db, release } = await openDatabase(config);
  try {
    return await work(db);
  } finally {
    await release();
  }
}

/**
 * A database handle that outlives the handler's own call, for an answer
 * streamed after the handler returned (the CSV export); call `release` when
 * the stream ends.
 */
export async function openDatabase(config = getConfig()): Promise<{ db: Database; release(): Promise<void> }> {
  if (config.databaseDriver === 'pg') {
    const pool = await pgPool(config);
    return { db: wrap(pool as unknown as PoolLike, true, preparingPools.has(pool)), release: async () => {} };
  }
  const pool = await neonPool(config);
  return { db: wrap(pool), release: () => pool.end().catch(() => {}) };
}

/**
 * `withDatabase` on the queue's own connections (QUEUE_CONNECTIONS of them;
 * its callers bound their concurrency to that): with Neon's driver, a pool of
 * the call's own as always.
 */
export async function withQueueDatabase<T>(work: (db: Database) => Promise<T>, config = getConfig()): Promise<T> {
  if (config.databaseDriver !== 'pg') return withDatabase(work, config);
  queuePgPool ??= newPgPool(config, QUEUE_CONNECTIONS);
  const pool = await queuePgPool;
  return work(wrap(pool as unknown as PoolLike, false, preparingPools.has(pool)));
}

/** Closes the shared pools (graceful shutdown, end of a test file). */
export async function closeDatabase(): Promise<void> {
  const pools = [sharedPgPool, queuePgPool];
  sharedPgPool = undefined;
  queuePgPool = undefined;
  await Promise.all(pools.map(async (pool) => (await pool)?.end()));
}
