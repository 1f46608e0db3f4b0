import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { RELAYED_CONNECT_TIMEOUT, startNeonRelay } from '../../../tests/support/neon-relay.ts';
import { parseConfig, type ServerConfig } from '../config.ts';
import { withDatabase } from '../db/database.ts';
import { hitRateLimit } from './rate-limit.ts';
import { IdempotencyConflict, insertLead } from './repository.ts';

let relayUrl: string;
beforeAll(async () => {
  relayUrl = (await startNeonRelay()).url;
});

// The same suite on both drivers: `pg` (any PostgreSQL) and Neon's
// serverless driver (Netlify), which talks to the same database through the relay.
describe.each(['pg', 'neon'] as const)('repository on the %s driver', (driver) => {
  const config = (): ServerConfig =>
    parseConfig({
      DATABASE_URL: process.env.DATABASE_URL,
      DATABASE_DRIVER: driver,
      NEON_WS_PROXY: relayUrl,
      // Each query opens its connection through the relay: beside a second suite that took over the production 5 s.
      ...RELAYED_CONNECT_TIMEOUT,
    });
  const run = <T>(work: Parameters<typeof withDatabase<T>>[0]) => withDatabase(work, config());

  const quote = (name: string) => ({ name, phone: '+529991234567', email: null, origin: 'hero' });

  it('inserts a lead and returns its id', async () => {
    const key = { key: randomUUID(), fingerprint: 'a'.repeat(64) };
    const stored = await run((db) => insertLead(db, 'cotizaciones_rapidas', quote(`${driver} uno`), key));
    expect(stored.created).toBe(true);
    const { rows } = await run((db) => db.query('SELECT name FROM cotizaciones_rapidas WHERE id = $1', [stored.id]));
    expect(rows).toEqual([{ name: `${driver} uno` }]);
  });

  it('returns the first lead, unchanged, for a repeated idempotency key and request', async () => {
    const key = { key: randomUUID(), fingerprint: 'b'.repeat(64) };
    const first = await run((db) => insertLead(db, 'cotizaciones_rapidas', quote('primero'), key, ['name']));
    const again = await run((db) => insertLead(db, 'cotizaciones_rapidas', quote('primero'), key, ['name']));
    expect(again).toEqual({ id: first.id, created: false, deliveries: [], values: { id: first.id, name: 'primero' } });
  });

  it('refuses the same key for another request', async () => {
    const key = randomUUID();
    await run((db) => insertLead(db, 'cotizaciones_rapidas', quote('primero'), { key, fingerprint: 'c'.repeat(64) }));
    await expect(
      run((db) => insertLead(db, 'cotizaciones_rapidas', quote('segundo'), { key, fingerprint: 'd'.repeat(64) })),
    ).rejects.toBeInstanceOf(IdempotencyConflict);
  });

  it('stores every lead without a key', async () => {
    const a = await run((db) => insertLead(db, 'cotizaciones_rapidas', quote('sin clave'), null));
    const b = await run((db) => insertLead(db, 'cotizaciones_rapidas', quote('sin clave'), null));
    expect(a.id).not.toBe(b.id);
  });

  it('refuses values outside the option sets at the database too', async () => {
    const bad = { ...quote('x'), origin: 'instagram' };
    await expect(run((db) => insertLead(db, 'cotizaciones_rapidas', bad, null))).rejects.toThrow(/check constraint/);
  });

  it('refuses a partner status that contradicts the score', async () => {
    const row = {
      name: 'x',
      phone: '+529991234567',
      role: 'otro',
      municipality: 'Mérida',
      investment: 'menor-500k',
      timeline: 'mas-12-meses',
      legal_documentation: 'si',
      consultancy_payment: 'si',
      score: 4,
      status: 'approved',
    };
    await expect(run((db) => insertLead(db, 'partner_applications', row, null))).rejects.toThrow(
      /partner_applications_status/,
    );
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const name = `tx ${randomUUID()}`;
    await expect(
      run((db) =>
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO login_failures (email, ip) VALUES ($1, '203.0.113.1')`, [name]);
          throw new Error('abort');
        }),
      ),
    ).rejects.toThrow('abort');
    await run((db) =>
      db.transaction((tx) => tx.query(`INSERT INTO login_failures (email, ip) VALUES ($1, '203.0.113.2')`, [name])),
    );
    const { rows } = await run((db) => db.query('SELECT ip FROM login_failures WHERE email = $1', [name]));
    expect(rows).toEqual([{ ip: '203.0.113.2' }]);
  });

  it('counts rate-limit hits per subject and allows up to the limit', async () => {
    const rule = { bucket: `test:${driver}`, limit: 2, windowSeconds: 600 };
    const results = [];
    for (let hit = 0; hit < 3; hit++) results.push(await run((db) => hitRateLimit(db, rule, '203.0.113.7')));
    expect(results).toEqual([true, true, false]);
    expect(await run((db) => hitRateLimit(db, rule, '203.0.113.8'))).toBe(true);
    expect(await run((db) => hitRateLimit(db, { ...rule, limit: 0 }, '203.0.113.7'))).toBe(true);
  });
});
