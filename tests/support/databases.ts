import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, '../../db/migrations');
/** Any constant of our own: the files of a run that need the template wait for the one that builds it. */
const TEMPLATE_LOCK_ID = 7_240_319;

/** The template's name: one per set of migrations, so a changed migration never meets an old copy. */
async function templateName(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(file).update(await readFile(path.join(MIGRATIONS_DIR, file)));
  }
  return `migrated_template_${hash.digest('hex').slice(0, 16)}`;
}

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const urlOf = (adminUrl: string, name: string): string => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
};

/**
 * The cluster's migrated template, made once by whichever test file needs it
 * first (the others wait on the lock): every migrated test database is a copy
 * of it (`CREATE DATABASE … TEMPLATE`), instead of running every migration again.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = await templateName();
  return withAdmin(adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${building} STRATEGY = FILE_COPY`);
        await migrate(urlOf(adminUrl, building));
        // Nobody may be connected to a template while it is copied: FORCE ends any idle client left over.
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
    }
  });
}

/**
 * Creates a database on the cluster of `adminUrl`, migrated unless told otherwise; returns its URL.
 *
 * `STRATEGY = FILE_COPY`: the template's files copied as files, not written block by block into the WAL
 * (PostgreSQL's default since 15, WAL_LOG, meant for a template that is large or busy). On the test cluster
 * (no fsync) 140 databases took about 40 s of CPU so, against 75 s through the WAL, and left 1.6 GB for
 * the cluster's stop to delete instead of 2.3 (measured on 2026-12-02, docs/benchmarks.md).
 */
export async function createTestDatabase(adminUrl: string, { migrated = true, prefix = 'test' } = {}): Promise<string> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const template = migrated ? await migratedTemplate(adminUrl) : null;
  await withAdmin(adminUrl, (admin) =>
    admin.query(`CREATE DATABASE ${name} ${template ? `TEMPLATE ${template} ` : ''}STRATEGY = FILE_COPY`),
  );
  return urlOf(adminUrl, name);
}

/**
 * A database made by createTestDatabase with the migrations before `first`
 * (e.g. '0034') applied: what was deployed before it, for a test that fills
 * it and then applies the rest (`migrate(url)`).
 */
export async function createDatabaseBefore(adminUrl: string, first: string, prefix = 'test'): Promise<string> {
  const url = await createTestDatabase(adminUrl, { migrated: false, prefix });
  const earlier = await mkdtemp(path.join(os.tmpdir(), 'casas-migrations-'));
  try {
    const all = path.resolve(import.meta.dirname, '../../db/migrations');
    for (const file of (await readdir(all)).filter((name) => name < first))
      await cp(path.join(all, file), path.join(earlier, file));
    await migrate(url, earlier);
  } finally {
    await rm(earlier, { recursive: true, force: true });
  }
  return url;
}

/** Drops a database made by createTestDatabase (its server must have stopped using it). */
export async function dropTestDatabase(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
