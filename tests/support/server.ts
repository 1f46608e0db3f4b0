import { afterAll } from 'vitest';
import { type RunningServer, spawnServer } from './spawn-server.ts';

export { postJson, type RunningServer } from './spawn-server.ts';

/** Starts the real local server for this test file (see spawnServer); it stops when the file ends. */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const server = await spawnServer(env);
  afterAll(() => server.stop());
  return server;
}
