import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';

/** Creates a database on the cluster of `adminUrl`, migrated unless told otherwise; returns its URL. */
export async function createTestDatabase(adminUrl: string, { migrated = true, prefix = 'test' } = {}): Promise<string> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (migrated) await migrate(url.href);
  return url.href;
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
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
