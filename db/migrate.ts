import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
/** Any constant shared by every runner: concurrent runs wait for each other. */
const ADVISORY_LOCK_ID = 7_240_318;

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies the SQL files of db/migrations in name order, each in its own
 * transaction, under an advisory lock. Files already applied are skipped.
 */
export async function migrate(connectionString: string, directory = MIGRATIONS_DIR): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version),
    );
    const files = await migrationFiles(directory);
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(directory, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
    // The job queue's own schema (graphile_worker), versioned and locked by the library itself.
    await migrateJobQueue(connectionString);
    return { applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

/** The migration files not yet applied to the database (all of them when it has none of our tables). */
export async function pendingMigrations(connectionString: string, directory = MIGRATIONS_DIR): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const table = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`,
    );
    const { rows } = table.rows[0]?.exists
      ? await client.query<{ version: string }>('SELECT version FROM schema_migrations')
      : { rows: [] };
    const done = new Set(rows.map((row) => row.version));
    const queue = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('graphile_worker.migrations') IS NOT NULL AS exists`,
    );
    const pending = (await migrationFiles(directory)).filter((file) => !done.has(file));
    return queue.rows[0]?.exists ? pending : [...pending, 'graphile_worker'];
  } finally {
    await client.end();
  }
}

async function migrateJobQueue(connectionString: string): Promise<void> {
  const { Logger, runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString, logger: new Logger(() => () => {}) });
}

async function migrationFiles(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
}

async function main(): Promise<void> {
  const { getConfig } = await import('../src/server/config.ts');
  const { startEmbeddedPostgres } = await import('../src/server/db/embedded.ts');
  const { dataDirectory } = await import('../src/server/local/paths.ts');
  const config = getConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: dataDirectory(config) });
  try {
    const { applied } = await migrate(config.databaseUrl ?? (embedded?.url as string));
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  } finally {
    await embedded?.stop();
  }
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
