import { readFile } from 'node:fs/promises';
import { expect, inject, it } from 'vitest';
import { createTestDatabase } from '../tests/support/databases.ts';
import { migrate } from './migrate.ts';
import { SCHEMA_FILE, schemaSnapshot } from './schema.ts';

it('db/schema.sql is the schema every migration leaves (run `npm run db:schema` after changing a migration)', async () => {
  // Migrated here from nothing, not copied from the suite's template, so the snapshot is the migrations' own.
  const url = await createTestDatabase(inject('pgAdminUrl'), { migrated: false, prefix: 'schema' });
  await migrate(url);
  const current = await schemaSnapshot(url);
  const stored = await readFile(SCHEMA_FILE, 'utf8');
  expect(stored, 'db/schema.sql is out of date: run `npm run db:schema`').toBe(current);
});
