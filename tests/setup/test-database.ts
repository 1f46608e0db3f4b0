import { afterAll, inject } from 'vitest';
import { closeDatabase } from '../../src/server/db/database.ts';
import { createTestDatabase } from '../support/databases.ts';
import { evaluation } from './evaluations.ts';

// Each test file gets its own database, so files run in parallel without
// seeing each other's rows.
process.env.DATABASE_URL = await createTestDatabase(inject('pgAdminUrl'));

// Files share a worker (isolate: false), so our modules must be evaluated anew for each (fresh-modules.ts):
// a configuration read by an earlier file would point this one at that file's database. A module of ours
// evaluated once per file says so (the configuration itself is not read here: a file may set its
// environment when it is imported, after this).
if (evaluation !== (globalThis as { filesStarted?: number }).filesStarted) {
  throw new Error('our modules were kept from an earlier test file: tests/setup/fresh-modules.ts must run first');
}

afterAll(() => closeDatabase());
