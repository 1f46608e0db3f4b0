import { beforeAll, expect, it } from 'vitest';
import { RELAYED_CONNECT_TIMEOUT, startNeonRelay } from '../support/neon-relay.ts';
import { partnerApplication, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows } from '../support/sql.ts';

let server: RunningServer;
beforeAll(async () => {
  const relay = await startNeonRelay();
  server = await startServer({ DATABASE_DRIVER: 'neon', NEON_WS_PROXY: relay.url, ...RELAYED_CONNECT_TIMEOUT });
});

it('stores leads through the Neon serverless driver, a pool per request', async () => {
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: `Neon ${index}` })),
    ),
  );
  expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
  expect(await countRows('cotizaciones_rapidas', "name LIKE 'Neon %'")).toBe(10);

  const partner = await postJson(`${server.url}/api/partner-applications`, partnerApplication());
  expect(await partner.json()).toMatchObject({ status: 'approved', score: 13 });
});
