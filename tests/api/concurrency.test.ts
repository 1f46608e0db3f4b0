import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows } from '../support/sql.ts';

let server: RunningServer;
beforeAll(async () => {
  // 200 visitors at once, all from this machine: past the function's own rateLimit (tested in platform-rate-limit).
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
});

it('stores 200 concurrent submissions, one row each, without an error', async () => {
  const responses = await Promise.all(
    Array.from({ length: 200 }, (_, index) =>
      postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: `Visitante ${index}` }), {
        'Idempotency-Key': randomUUID(),
      }),
    ),
  );
  expect(responses.map((response) => response.status)).toEqual(Array(200).fill(201));
  expect(await countRows('cotizaciones_rapidas', "name LIKE 'Visitante %'")).toBe(200);
  expect(server.output()).not.toMatch(/error/i);
});

it('stores one row when the same idempotency key arrives twenty times at once', async () => {
  const key = randomUUID();
  const responses = await Promise.all(
    Array.from({ length: 20 }, () =>
      postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Doble clic' }), { 'Idempotency-Key': key }),
    ),
  );
  const bodies = await Promise.all(responses.map((response) => response.json()));
  expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
  expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
  expect(await countRows('cotizaciones_rapidas', 'idempotency_key = $1', [key])).toBe(1);
});
