import { describe, expect, it } from 'vitest';
import { config as notFoundConfig } from '../../netlify/functions/not-found.ts';
import { PLATFORM_RATE_LIMITED } from '../../src/server/http/platform-rate-limit.ts';
import { postJson, startServer } from '../support/server.ts';

/**
 * Issue #23, item 6: the local server applies each function's
 * `config.rateLimit` as Netlify does (windowLimit requests per windowSize
 * seconds, per client address). The sliding window itself is tested on a
 * hand-moved clock in src/server/http/platform-rate-limit.test.ts.
 */
const LIMIT = notFoundConfig.rateLimit?.windowLimit as number;
const report = { path: '/modelos/no-existe', referrer: null };

/** A report to /api/not-found (rateLimit 60 per 60 s) from `address`, through a trusted proxy on this machine. */
const reportFrom = (url: string, address: string) =>
  postJson(`${url}/api/not-found`, report, { 'X-Forwarded-For': address });

/** Lines the not-found handler wrote: one per call that reached it. */
const handled = (output: string) => output.split('\n').filter((line) => line.includes('"event":"not_found"')).length;

describe("a function's config.rateLimit on the local server", () => {
  it('refuses the request past windowLimit with a Spanish JSON 429 and Retry-After, per address, without calling the function', async () => {
    expect(notFoundConfig.rateLimit).toMatchObject({ windowSize: 60, aggregateBy: ['ip', 'domain'] });
    const server = await startServer({ TRUST_PROXY: 'loopback' });

    const admitted = await Promise.all(Array.from({ length: LIMIT }, () => reportFrom(server.url, '203.0.113.10')));
    expect(admitted.map((response) => response.status)).toEqual(Array(LIMIT).fill(204));

    const refused = await reportFrom(server.url, '203.0.113.10');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ error: PLATFORM_RATE_LIMITED });
    expect(PLATFORM_RATE_LIMITED).toBe('Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.');

    // Another address is not affected; the refused one still is.
    expect((await reportFrom(server.url, '203.0.113.11')).status).toBe(204);
    expect((await reportFrom(server.url, '203.0.113.10')).status).toBe(429);

    // The function ran once per admitted request: LIMIT + 1 (the other address), never for a refusal.
    await expect.poll(() => handled(server.output())).toBe(LIMIT + 1);
    expect(server.output()).toContain('"event":"platform_rate_limited","function":"not-found"');
  });

  it('without a trusted proxy, X-Forwarded-For does not open a new count', async () => {
    const server = await startServer();
    await Promise.all(Array.from({ length: LIMIT }, (_, index) => reportFrom(server.url, `203.0.113.${index}`)));
    expect((await reportFrom(server.url, '198.51.100.1')).status).toBe(429);
  });

  it('PLATFORM_RATE_LIMIT=0 turns the limits off', async () => {
    const server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
    const statuses = await Promise.all(
      Array.from({ length: LIMIT + 5 }, async () => (await reportFrom(server.url, '203.0.113.10')).status),
    );
    expect(statuses).toEqual(Array(LIMIT + 5).fill(204));
  });
});
