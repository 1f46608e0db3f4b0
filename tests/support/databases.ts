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
