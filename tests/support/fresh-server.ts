import { inject } from 'vitest';
import { createTestDatabase } from './databases.ts';
import { type RunningServer, spawnServer } from './spawn-server.ts';

/** A local server on a database of its own (no administrator, no rows), for tests that need a clean slate. */
export async function freshServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  return spawnServer({ DATABASE_URL: await createTestDatabase(inject('pgAdminUrl')), ...env });
}
