import { afterAll } from 'vitest';
import { RELAYED_CONNECT_TIMEOUT, startNeonRelay } from './neon-relay.ts';
import { type RunningServer, spawnServer } from './spawn-server.ts';

/** A production-like secret for the emulated functions (not the one the other tests use). */
export const NETLIFY_JWT_SECRET = 'netlify-emulator-secret-of-at-least-32-bytes';

export interface NetlifySite extends RunningServer {
  /**
   * Runs a scheduled function now, as Netlify's scheduler does: the emulator
   * turns `POST /.netlify/functions/<name>` of a function with a `schedule`
   * into a scheduled call (user agent `Netlify Clockwork`, `x-nf-event:
   * schedule`); the body carries `next_run`, as on Netlify.
   */
  invokeScheduled(name: string): Promise<Response>;
}

const relays = new Set<{ close(): Promise<void> }>();
// Registered at collection time (an afterAll added inside a beforeAll is ignored). The emulator
// process itself is stopped by tests/setup/stop-servers.ts, as every spawned server is.
afterAll(async () => {
  await Promise.all([...relays].map((relay) => relay.close()));
  relays.clear();
});

/**
 * Serves the built site (`dist/`, `.netlify/`, `netlify/functions/`) through
 * `@netlify/dev`, Netlify's own emulator, in its own process
 * (tests/support/netlify-dev-server.ts), on this test file's database.
 *
 * The functions see what they would see on Netlify: production mode
 * (`NODE_ENV=production`, so `DATABASE_URL` and `JWT_SECRET` are required),
 * and Neon's serverless driver, as with a `*.neon.tech` URL, through a local
 * WebSocket relay to the embedded PostgreSQL. `env` adds or overrides
 * variables (undefined removes one), e.g. the notification channels.
 *
 * Cost: the emulator starts in ~2 s; a function is bundled on its first
 * call (the emulator itself would bundle all of them at start and again on
 * each call, docs/decisions/0015-netlify-emulator-and-no-ssr-catch-all.md;
 * netlify-dev-server.ts bundles each once): start one per test file and call
 * few functions.
 */
export async function startNetlifyDev(env: Record<string, string | undefined> = {}): Promise<NetlifySite> {
  const relay = await startNeonRelay();
  relays.add(relay);
  const server = await spawnServer(
    {
      NODE_ENV: 'production',
      JWT_SECRET: NETLIFY_JWT_SECRET,
      DATABASE_DRIVER: 'neon',
      NEON_WS_PROXY: relay.url,
      ...RELAYED_CONNECT_TIMEOUT,
      ...env,
    },
    { script: 'tests/support/netlify-dev-server.ts' },
  );
  return {
    ...server,
    invokeScheduled: (name) =>
      fetch(`${server.url}/.netlify/functions/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ next_run: new Date(Date.now() + 60_000).toISOString() }),
      }),
  };
}
