import { afterAll, inject } from 'vitest';
import { closeDatabase } from '../../src/server/db/database.ts';
import { createTestDatabase } from '../support/databases.ts';

// Each test file gets its own database, so files run in parallel without
// seeing each other's rows.
process.env.DATABASE_URL = await createTestDatabase(inject('pgAdminUrl'));

afterAll(() => closeDatabase());
