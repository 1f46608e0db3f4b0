import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, inject, it } from 'vitest';
import { createTestDatabase } from '../tests/support/databases.ts';
import { expectTimeOrderedId } from '../tests/support/ids.ts';
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

it('gives each lead table an index on created_at descending, for newest-first pages', async () => {
  const indexes = await sql<{ tablename: string; indexdef: string }>(
    `SELECT tablename, indexdef FROM pg_indexes
     WHERE indexdef LIKE '%(created_at DESC%' AND tablename IN ('cotizaciones_rapidas', 'partner_applications', 'quote_requests')
     ORDER BY tablename`,
  );
  expect(indexes.map((row) => row.tablename)).toEqual([
    'cotizaciones_rapidas',
    'partner_applications',
    'quote_requests',
  ]);
});

it('allows several administrators, one role per member, and the one-time setup once', async () => {
  const [first, second] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ('a@x.mx', '$2b$12$x'), ('b@x.mx', '$2b$12$y') RETURNING id`,
  );
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'admin'), ($2, 'admin')`, [first?.id, second?.id]);
  await expect(sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [first?.id])).rejects.toThrow(
    /user_roles_one_per_user_idx/,
  );
  await sql('INSERT INTO first_admin_setup (user_id) VALUES ($1)', [first?.id]);
  await expect(sql('INSERT INTO first_admin_setup (user_id) VALUES ($1)', [second?.id])).rejects.toThrow(
    /first_admin_setup_pkey/,
  );
});

it('rolls a failing migration back whole and stops there, keeping the ones before it', async () => {
  const url = await createTestDatabase(inject('pgAdminUrl'), { migrated: false, prefix: 'broken' });
  const directory = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  await writeFile(path.join(directory, '0001_ok.sql'), 'CREATE TABLE uno (id int);');
  await writeFile(path.join(directory, '0002_broken.sql'), 'CREATE TABLE dos (id int);\nINSERT INTO nada VALUES (1);');
  await writeFile(path.join(directory, '0003_later.sql'), 'CREATE TABLE tres (id int);');
  await expect(migrate(url, directory)).rejects.toThrow(/0002_broken\.sql failed: relation "nada" does not exist/);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const tables = await client.query(
    "SELECT table_name FROM information_schema.tables WHERE table_name IN ('uno', 'dos', 'tres') ORDER BY 1",
  );
  const applied = await client.query('SELECT version FROM schema_migrations');
  await client.end();
  expect(tables.rows.map((row) => row.table_name)).toEqual(['uno']);
  expect(applied.rows.map((row) => row.version)).toEqual(['0001_ok.sql']);
});

it('makes ids in time order, also where PostgreSQL has no uuidv7() (14-17): version 7, this millisecond first', async () => {
  const before = Date.now();
  const rows = await sql<{ id: string }>('SELECT uuid_in_time_order()::text AS id FROM generate_series(1, 50)');
  const after = Date.now();
  expect(new Set(rows.map((row) => row.id)).size).toBe(50);
  for (const { id } of rows) expectTimeOrderedId(id, before, after);
  // The tables written for every lead take them by default (uuidv7() here, on PostgreSQL 18).
  const defaults = await sql<{ table_name: string; column_default: string }>(
    `SELECT table_name, column_default FROM information_schema.columns
     WHERE column_name = 'id' AND table_schema = 'public'
       AND table_name IN ('cotizaciones_rapidas', 'quote_requests', 'partner_applications', 'voice_calls',
                          'contacts', 'notification_deliveries')`,
  );
  expect(defaults).toHaveLength(6);
  for (const row of defaults) expect(row.column_default, row.table_name).toMatch(/^(uuidv7|uuid_in_time_order)\(\)$/);
});
