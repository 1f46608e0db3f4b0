import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingRelay, startCountingRelay } from '../../../tests/support/counting-relay.ts';
import { expectTimeOrderedId } from '../../../tests/support/ids.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../../../tests/support/payloads.ts';
import { partnerForm } from '../../lib/forms/partner-application.ts';
import { quickQuoteForm } from '../../lib/forms/quick-quote.ts';
import { quoteRequestSchema } from '../../lib/forms/quote-request.ts';
import { parseConfig } from '../config.ts';
import { closeDatabase, withDatabase } from '../db/database.ts';
import { scorePartnerApplication } from './partner-score.ts';
import { insertLead, type LeadTable } from './repository.ts';
import { partnerApplicationRow, quickQuoteRow, quoteRequestRow, type Row } from './rows.ts';

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
/** One quick quote as a lead_request (store_lead_requests()' named fields). */
const leadRequest = (phone: string, channels: string[] = [], returning: string[] = [], key: string | null = null) => ({
  lead_table: 'cotizaciones_rapidas',
  lead_row: quote(phone),
  contact: { phone, name: 'Lucía Batún', email: null, municipality: null, buyer: false, touch: {} },
  idempotency_key: key,
  idempotency_fingerprint: key && createHash('sha256').update(key).digest('hex'),
  lead_kind: 'quick-quotes',
  channels,
  returning_columns: returning,
  rate_bucket: null,
  rate_subject: null,
  rate_window: null,
  rate_limit: 0,
  first_reply: null,
});
const storeLeads = async (leads: unknown[]) =>
  (
    await direct.query<{ outcomes: Record<string, Record<string, unknown>>[] }>(
      'SELECT store_lead_requests($1::jsonb) AS outcomes',
      [JSON.stringify(leads)],
    )
  ).rows[0]?.outcomes ?? [];
/** A body parsed as its endpoint parses it (a failed parse fails the test). */
function parsed<T>(schema: { safeParse(value: unknown): { success: boolean; data?: T } }, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`invalid test body: ${JSON.stringify(body)}`);
  return result.data as T;
}
/** Every form's row, as its function builds it (netlify/functions/*.ts), for a phone. */
const FORMS: { form: string; table: LeadTable; returning: string[]; row(phone: string): Row }[] = [
  {
    form: 'quick-quote',
    table: 'cotizaciones_rapidas',
    returning: [],
    row: (phone) => quickQuoteRow(parsed(quickQuoteForm.schema, quickQuote({ phone, utm_source: 'facebook' }))),
  },
  {
    form: 'prefiltro',
    table: 'quote_requests',
    returning: [],
    row: (phone) => quoteRequestRow(parsed(quoteRequestSchema, preFilter({ phone }))),
  },
  {
    form: 'estimacion',
    table: 'quote_requests',
    returning: [],
    row: (phone) => quoteRequestRow(parsed(quoteRequestSchema, estimate({ phone, terrain_size: '200' }))),
  },
  {
    form: 'socios',
    table: 'partner_applications',
    returning: ['status', 'score'],
    row: (phone) => {
      const input = parsed(partnerForm.schema, partnerApplication({ phone }));
      return partnerApplicationRow(input, scorePartnerApplication(input));
    },
  },
];

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
    // Their rows went in by one INSERT (0032): one transaction, one command of it.
    expect(
      await count(
        'SELECT count(DISTINCT (xmin::text, cmin::text)) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)',
        [phones],
      ),
    ).toBe(1);
  });

  it('every form’s rows stored together are the rows each stores alone; one INSERT per table and set of columns (0032)', async () => {
    await withDatabase((db) => db.query('SELECT 1'), config()); // the pool's connection is open
    const storeForm = (form: (typeof FORMS)[number], phone: string) =>
      withDatabase((db) => insertLead(db, form.table, form.row(phone), null, form.returning), config());
    const alone = FORMS.map(() => uniquePhone());
    const aloneAnswers = [];
    for (const [index, form] of FORMS.entries()) aloneAnswers.push(await storeForm(form, alone[index] as string));
    const together = FORMS.map(() => [uniquePhone(), uniquePhone()] as const);
    relay.reset();
    const togetherAnswers = await Promise.all(
      FORMS.flatMap((form, index) => (together[index] as readonly string[]).map((phone) => storeForm(form, phone))),
    );
    expect(relay.roundTrips()).toBe(1);

    const stored = async (table: LeadTable, phone: string) => {
      const { rows } = await direct.query<{ row: Record<string, unknown>; command: string; transaction: string }>(
        `SELECT to_jsonb(l) - '{id,contact_id,phone,created_at,privacy_accepted_at}'::text[] AS row,
                cmin::text AS command, xmin::text AS transaction
         FROM ${table} l WHERE phone = $1`,
        [phone],
      );
      expect(rows).toHaveLength(1);
      return rows[0] as { row: Record<string, unknown>; command: string; transaction: string };
    };
    const commands = new Set<string>();
    const transactions = new Set<string>();
    for (const [index, form] of FORMS.entries()) {
      const reference = await stored(form.table, alone[index] as string);
      // Every column as the lead stored alone has it: types read alike, defaults filled, nothing lost.
      expect(Object.keys(reference.row).length).toBeGreaterThan(10);
      const pair = await Promise.all((together[index] as readonly string[]).map((phone) => stored(form.table, phone)));
      for (const row of pair) expect(row.row, form.form).toEqual(reference.row);
      // The form's two rows: one INSERT; each form (each set of columns) its own.
      expect(new Set(pair.map((row) => row.command)).size, form.form).toBe(1);
      commands.add(pair[0]?.command as string);
      for (const row of pair) transactions.add(row.transaction);
      // The answer, as alone: the returned columns and the row's id.
      for (const answer of togetherAnswers.slice(index * 2, index * 2 + 2)) {
        expect(answer.created).toBe(true);
        expect(Object.keys(answer.values).sort()).toEqual(['id', ...form.returning].sort());
        expect({ ...answer.values, id: null }).toEqual({ ...aloneAnswers[index]?.values, id: null });
      }
    }
    expect(commands.size).toBe(FORMS.length);
    expect(transactions.size).toBe(1);
  });

  it('one idempotency key twice in one statement: one row; the second lead answers with the first (0032)', async () => {
    const phone = uniquePhone();
    const other = uniquePhone();
    const key = `clave-${phone}`;
    const [first, second, third] = await storeLeads([
      leadRequest(phone, [], [], key),
      leadRequest(phone, [], [], key),
      leadRequest(other),
    ]);
    expect(first?.stored).toMatchObject({ created: true });
    expect(second?.stored).toMatchObject({ created: false, id: first?.stored?.id });
    expect(third?.stored).toMatchObject({ created: true });
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE idempotency_key = $1', [key])).toBe(1);
    expect(await count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = $1', [other])).toBe(1);
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
        .poll(() => count('SELECT count(*) AS n FROM cotizaciones_rapidas WHERE phone = ANY ($1)', [others]))
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
    const phones = Array.from({ length: 3 }, uniquePhone);
    const before = Date.now();
    const [first, refused, none, last] = await storeLeads([
      leadRequest(phones[0] as string, ['webhook', 'email']),
      leadRequest('no es un teléfono', ['email']),
      leadRequest(phones[1] as string, []),
      leadRequest(phones[2] as string, ['whatsapp', 'webhook', 'email'], ['contact_id']),
    ]);
    const after = Date.now();
    expect(refused?.error).toMatchObject({ code: '23514' });
    expect(none?.stored).toMatchObject({ created: true, deliveries: [] });
    // The contact asked for by store_lead_requests itself is not in an answer that did not ask for it.
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
      // Made by store_leads_together() before its INSERT (0030), in the column's own form: version 7, this moment.
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

  it('the adapters kept for 0036’s deploy are gone: the lead path has one entry per shape', async () => {
    const { rows } = await direct.query<{ name: string }>(
      `SELECT proname AS name FROM pg_proc WHERE proname IN ('store_lead', 'store_leads', 'store_lead_request', 'store_lead_requests')
       ORDER BY proname`,
    );
    expect(rows.map((row) => row.name)).toEqual(['store_lead_request', 'store_lead_requests']);
  });

  it('a lead row needs its contact: no trigger makes one any more (0036)', async () => {
    const phone = uniquePhone();
    await expect(
      direct.query("INSERT INTO cotizaciones_rapidas (name, phone, origin) VALUES ('Lucía Batún', $1, 'hero')", [
        phone,
      ]),
    ).rejects.toMatchObject({ code: '23502' });
    expect(await count('SELECT count(*) AS n FROM contacts WHERE phone = $1', [phone])).toBe(0);
  });
});
