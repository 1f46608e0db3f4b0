import { randomUUID } from 'node:crypto';
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
