import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { createTestDatabase } from '../tests/support/databases.ts';
import { sql } from '../tests/support/sql.ts';
import { migrate } from './migrate.ts';

const files = (await readdir(path.join(import.meta.dirname, 'migrations')))
  .filter((file) => file.endsWith('.sql'))
  .sort();

it('applies each migration exactly once when five runners start together', async () => {
  const url = await createTestDatabase(inject('pgAdminUrl'), { migrated: false, prefix: 'migrate' });
  const reports = await Promise.all(Array.from({ length: 5 }, () => migrate(url)));
  expect(reports.flatMap((report) => report.applied).sort()).toEqual(files);
  expect(await migrate(url)).toEqual({ applied: [] });

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
  await client.end();
  expect(rows.map((row) => row.version)).toEqual(files);
});

it('creates the lead tables with an index on created_at each', async () => {
  const indexes = await sql<{ indexname: string }>(
    "SELECT indexname FROM pg_indexes WHERE indexname LIKE '%created_at_idx' ORDER BY indexname",
  );
  expect(indexes.map((row) => row.indexname)).toEqual([
    'cotizaciones_rapidas_created_at_idx',
    'partner_applications_created_at_idx',
    'quote_requests_created_at_idx',
  ]);
});

it('allows one administrator role at most', async () => {
  const [first, second] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ('a@x.mx', '$2b$12$x'), ('b@x.mx', '$2b$12$y') RETURNING id`,
  );
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'admin')`, [first?.id]);
  await expect(sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'admin')`, [second?.id])).rejects.toThrow(
    /user_roles_single_admin_idx/,
  );
});
