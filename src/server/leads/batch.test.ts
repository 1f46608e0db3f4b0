import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingRelay, startCountingRelay } from '../../../tests/support/counting-relay.ts';
import { expectTimeOrderedId } from '../../../tests/support/ids.ts';
import { parseConfig } from '../config.ts';
import { closeDatabase, withDatabase } from '../db/database.ts';
import { insertLead } from './repository.ts';

/**
 * Decision 0044 on the real database: leads that wait for the shared pool at
 * one moment go in one statement (counted at the database's door), and one
 * lead's trouble stays its own.
 */
let relay: CountingRelay;
let direct: pg.Pool;
beforeAll(async () => {
  relay = await startCountingRelay(process.env.DATABASE_URL as string);
  direct = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await closeDatabase();
  await direct.end();
});

const config = () => parseConfig({ DATABASE_URL: relay.url, DATABASE_DRIVER: 'pg' });
const uniquePhone = () => `+5297${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const quote = (phone: string, name = 'Lucía Batún') => ({ name, phone, email: null, origin: 'hero' });
/** Leads sent from one turn of the event loop, as requests whose bodies arrived together. */
const storeAtOnce = (leads: { phone: string; name?: string }[]) =>
  Promise.allSettled(
    leads.map((lead) =>
      withDatabase((db) => insertLead(db, 'cotizaciones_rapidas', quote(lead.phone, lead.name), null), config()),
    ),
  );
const count = async (text: string, values: unknown[]) => Number((await direct.query(text, values)).rows[0]?.n);

describe('leads stored together', () => {
  it('twelve leads at one moment: one statement; each stored once with its own contact', async () => {
    await withDatabase((db) => db.query('SELECT 1'), config()); // the pool's connection is open
    const phones = Array.from({ length: 12 }, uniquePhone);
    relay.reset();
    const results = await storeAtOnce(phones.map((phone) => ({ phone })));
    expect(relay.roundTrips()).toBe(1);
    expect(results.map((result) => result.status)).toEqual(phones.map(() => 'fulfilled'));
    expect(
      await count(
        `SELECT count(*) AS n FROM cotizaciones_rapidas l JOIN contacts c ON c.id = l.contact_id
         WHERE l.phone = ANY ($1) AND c.phone = l.phone`,
        [phones],
      ),
    ).toBe(12);
  });

  it('thirty leads at one moment: statements of at most 12 (decision 0046), each lead stored once', async () => {
    await withDatabase((db) => db.query('SELECT 1'), config()); // the pool's connection is open
    const phones = Array.from({ length: 30 }, uniquePhone);
    relay.reset();
    const results = await storeAtOnce(phones.map((phone) => ({ phone })));
    expect(results.map((result) => result.status)).toEqual(phones.map(() => 'fulfilled'));
    // 12, 12 and 6: a lead waits behind eleven others at most, never behind 29.
    expect(relay.roundTrips()).toBe(3);
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [phones])).toBe(30);
  });

  it('sixty leads at one moment: at most four statements at once (decision 0047), the fifth when one ends', async () => {
    // Five connections open and idle, so each statement can start as soon as the batcher lets it.
    await Promise.all(Array.from({ length: 5 }, () => withDatabase((db) => db.query('SELECT 1'), config())));
    const phones = Array.from({ length: 60 }, uniquePhone);
    relay.reset();
    const results = await storeAtOnce(phones.map((phone) => ({ phone })));
    expect(results.map((result) => result.status)).toEqual(phones.map(() => 'fulfilled'));
    expect(relay.roundTrips()).toBe(5);
    expect(relay.mostAtOnce()).toBe(4);
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [phones])).toBe(60);
  });

  it('one lead refused in the statement: only it fails, nothing of it stays, the other eleven are stored', async () => {
    await direct.query(`CREATE FUNCTION refuse_one_lead() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await direct.query(`CREATE TRIGGER refuse_one_lead BEFORE INSERT ON cotizaciones_rapidas FOR EACH ROW
                        WHEN (NEW.name = 'Falla Adrede') EXECUTE FUNCTION refuse_one_lead()`);
    try {
      const phones = Array.from({ length: 12 }, uniquePhone);
      relay.reset();
      const results = await storeAtOnce(
        phones.map((phone, i) => ({ phone, name: i === 5 ? 'Falla Adrede' : 'Ana Uc' })),
      );
      expect(relay.roundTrips()).toBe(1);
      expect(results.map((result) => result.status)).toEqual(
        phones.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')),
      );
      expect(await count('SELECT count(*) AS n FROM contacts WHERE phone = $1', [phones[5]])).toBe(0);
      expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [phones])).toBe(11);
    } finally {
      await direct.query('DROP TRIGGER refuse_one_lead ON cotizaciones_rapidas');
      await direct.query('DROP FUNCTION refuse_one_lead()');
    }
  });

  it('a lead whose contact someone holds does not hold up the others: they are stored, it follows once free', async () => {
    const held = uniquePhone();
    await withDatabase((db) => insertLead(db, 'cotizaciones_rapidas', quote(held), null), config());
    const holder = await direct.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM contacts WHERE phone = $1 FOR UPDATE', [held]);
    const others = Array.from({ length: 4 }, uniquePhone);
    const results = storeAtOnce([held, ...others].map((phone) => ({ phone })));
    try {
      // Stored and committed while the held contact is still held (its lead gave up after 2 s and waits alone).
      await expect
        .poll(() => count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [others]), {
          timeout: 20_000,
        })
        .toBe(4);
      expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = $1', [held])).toBe(1);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect((await results).map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = $1', [held])).toBe(2);
  });

  it('deliveries stored together (0025): each lead answers with its own, in its channels’ order; a failed lead has none', async () => {
    const lead = (phone: string, channels: string[], returning: string[] = []) => [
      'cotizaciones_rapidas',
      quote(phone),
      { phone, name: 'Lucía Batún', email: null, municipality: null, buyer: false, touch: {} },
      null,
      null,
      'quick-quotes',
      channels,
      returning,
      null,
      null,
      null,
      0,
      null,
    ];
    const phones = Array.from({ length: 3 }, uniquePhone);
    const before = Date.now();
    const { rows } = await direct.query<{ outcomes: Record<string, Record<string, unknown>>[] }>(
      'SELECT store_leads($1::jsonb) AS outcomes',
      [
        JSON.stringify([
          lead(phones[0] as string, ['webhook', 'email']),
          lead('no es un teléfono', ['email']),
          lead(phones[1] as string, []),
          lead(phones[2] as string, ['whatsapp', 'webhook', 'email'], ['contact_id']),
        ]),
      ],
    );
    const after = Date.now();
    const [first, refused, none, last] = rows[0]?.outcomes ?? [];
    expect(refused?.error).toMatchObject({ code: '23514' });
    expect(none?.stored).toMatchObject({ created: true, deliveries: [] });
    // The contact asked for by store_leads itself is not in an answer that did not ask for it.
    expect(Object.keys(first?.stored?.values as object)).toEqual(['id']);
    expect(Object.keys(last?.stored?.values as object).sort()).toEqual(['contact_id', 'id']);
    for (const [outcome, channels] of [
      [first, ['webhook', 'email']],
      [last, ['whatsapp', 'webhook', 'email']],
    ] as const) {
      const stored = outcome?.stored as { id: string; deliveries: string[] };
      const { rows: deliveries } = await direct.query<{ channel: string; lead_id: string; contact_ok: boolean }>(
        `SELECT d.channel, d.lead_id, d.contact_id = l.contact_id AS contact_ok
         FROM unnest($1::uuid[]) WITH ORDINALITY AS wanted (id, position)
         JOIN notification_deliveries d ON d.id = wanted.id JOIN cotizaciones_rapidas l ON l.id = d.lead_id
         ORDER BY wanted.position`,
        [stored.deliveries],
      );
      expect(deliveries).toEqual(channels.map((channel) => ({ channel, lead_id: stored.id, contact_ok: true })));
      // Made by store_leads() before its INSERT (0030), in the column's own form: version 7, this moment.
      for (const id of stored.deliveries) expectTimeOrderedId(id, before, after);
    }
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [phones])).toBe(3);
    // The five in the answers and no others: the refused lead and the lead without channels have none.
    expect(
      await count(
        `SELECT count(*) AS n FROM notification_deliveries d JOIN cotizaciones_rapidas l ON l.id = d.lead_id
         WHERE l.phone = ANY ($1)`,
        [phones],
      ),
    ).toBe(5);
  });
});
