import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CountingRelay, startCountingRelay } from '../support/counting-relay.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #25: a lead is stored in at most 2 round trips to PostgreSQL (counted
 * at the database's door by a relay that reads the protocol), whichever path
 * it takes; first leads of different people never wait for each other; and
 * the counts per state stay exact.
 */
let relay: CountingRelay;
let server: RunningServer;

beforeAll(async () => {
  relay = await startCountingRelay(process.env.DATABASE_URL as string);
  // The rate limit on, as in production: it is counted in the same round trip.
  server = await startServer({ DATABASE_URL: relay.url, LEAD_RATE_LIMIT: '1000', PLATFORM_RATE_LIMIT: '0' });
});

const uniquePhone = () => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** The round trips to PostgreSQL of one submission, and its answer. */
async function roundTripsOf(path: string, body: object, key: string | null = randomUUID()) {
  // The pool's connections are open already (every test posts once before counting).
  relay.reset();
  const response = await postJson(`${server.url}${path}`, body, key ? { 'Idempotency-Key': key } : {});
  return { status: response.status, roundTrips: relay.roundTrips(), body: await response.json() };
}

describe('round trips per lead', () => {
  it('each form: a new person, the same person again, a repeated key, a key reused with other data', async () => {
    const forms = [
      ['/api/quick-quotes', quickQuote],
      ['/api/quote-requests', preFilter],
      ['/api/quote-requests', estimate],
      ['/api/partner-applications', partnerApplication],
    ] as const;
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() }));
    for (const [path, payload] of forms) {
      const phone = uniquePhone();
      const key = randomUUID();
      const first = await roundTripsOf(path, payload({ phone }), key);
      expect(first, `${path} new person`).toMatchObject({ status: 201, roundTrips: 1 });
      const replay = await roundTripsOf(path, payload({ phone }), key);
      expect(replay, `${path} replay`).toMatchObject({ status: 201, roundTrips: 1, body: first.body });
      const reused = await roundTripsOf(path, payload({ phone, name: 'Otra Persona' }), key);
      expect(reused, `${path} key reused`).toMatchObject({ status: 422, roundTrips: 1 });
      const again = await roundTripsOf(path, payload({ phone }), null);
      expect(again, `${path} same person`).toMatchObject({ status: 201, roundTrips: 1 });
      expect(await countRows('contacts', 'phone = $1', [`+52${phone}`])).toBe(1);
    }
  });

  it('a closed contact reopened, and a new one with the round-robin on: still one round trip', async () => {
    const phone = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }));
    await sql(`UPDATE contacts SET state = 'cerrado_perdido', lost_reason = 'otro' WHERE phone = $1`, [`+52${phone}`]);
    expect(await roundTripsOf('/api/quick-quotes', quickQuote({ phone }))).toMatchObject({
      status: 201,
      roundTrips: 1,
    });
    const [reopened] = await sql<{ state: string; events: number }>(
      `SELECT c.state, (SELECT count(*)::int FROM contact_events e WHERE e.contact_id = c.id AND e.kind = 'reopened') AS events
       FROM contacts c WHERE phone = $1`,
      [`+52${phone}`],
    );
    expect(reopened).toEqual({ state: 'nuevo', events: 1 });

    const [adviser] = await sql<{ id: string }>(
      `INSERT INTO users (email, name, password_hash) VALUES ($1, 'Asesora Turno', '$2a$10$abcdefghijklmnopqrstuv') RETURNING id`,
      [`turno-${randomUUID()}@ceiba.mx`],
    );
    await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [adviser?.id]);
    await sql('UPDATE team_settings SET round_robin = true');
    try {
      const other = uniquePhone();
      expect(await roundTripsOf('/api/quick-quotes', quickQuote({ phone: other }))).toMatchObject({
        status: 201,
        roundTrips: 1,
      });
      expect(await countRows('contacts', 'phone = $1 AND assigned_to = $2', [`+52${other}`, adviser?.id])).toBe(1);
    } finally {
      await sql('UPDATE team_settings SET round_robin = false');
    }
  });

  it('over the rate limit: one round trip, 429, nothing stored', async () => {
    const limited = await startServer({ DATABASE_URL: relay.url, LEAD_RATE_LIMIT: '1', PLATFORM_RATE_LIMIT: '0' });
    await sql('DELETE FROM rate_limit_counters'); // this address's window starts over, with a limit of 1
    try {
      expect((await postJson(`${limited.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() }))).status).toBe(
        201,
      );
      const phone = uniquePhone();
      relay.reset();
      const response = await postJson(`${limited.url}/api/quick-quotes`, quickQuote({ phone }));
      expect({ status: response.status, roundTrips: relay.roundTrips() }).toEqual({ status: 429, roundTrips: 1 });
      expect(await countRows('contacts', 'phone = $1', [`+52${phone}`])).toBe(0);
    } finally {
      await limited.stop();
    }
  });
});

describe('no hot row', () => {
  it('a first lead is stored while another person’s new contact and a change of state wait uncommitted', async () => {
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    const moved = uniquePhone();
    await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: moved }));
    try {
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, 'Sin confirmar', true)`, [
        `+52${uniquePhone()}`,
      ]);
      await holder.query(`UPDATE contacts SET state = 'contactado' WHERE phone = $1`, [`+52${moved}`]);
      // Before #25 both held the one row of `nuevo` in contact_state_counts: this waited for the statement timeout (503).
      const response = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() }));
      expect(response.status).toBe(201);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('the counts per state stay exact under concurrent leads, changes of state and folds', async () => {
    const phones = Array.from({ length: 60 }, uniquePhone);
    const folds = Array.from({ length: 10 }, () => sql('SELECT fold_contact_state_changes()'));
    const posts = phones.map((phone) => postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone })));
    const moves = phones
      .slice(0, 20)
      .map((phone) => sql(`UPDATE contacts SET state = 'en_seguimiento' WHERE phone = $1`, [`+52${phone}`]));
    await Promise.all([...folds, ...posts, ...moves]);
    // A fold that rolls back leaves the changes as they were.
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT fold_contact_state_changes()');
    await holder.query('ROLLBACK');
    await holder.end();
    const [exact] = await sql<{ kept: Record<string, number>; counted: Record<string, number> }>(
      `SELECT (SELECT jsonb_object_agg(state, contacts) FROM contact_state_counts WHERE contacts <> 0) AS kept,
              (SELECT jsonb_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM contacts GROUP BY state) c) AS counted`,
    );
    expect(exact?.kept).toEqual(exact?.counted);
  });
});

describe('leads that arrive together (decision 0044)', () => {
  it('30 at once: each answered 201 and stored once with its own contact', async () => {
    const phones = Array.from({ length: 30 }, uniquePhone);
    const answers = await Promise.all(
      phones.map((phone) => postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(phones.map(() => 201));
    const [stored] = await sql<{ leads: number; contacts: number }>(
      `SELECT (SELECT count(*)::int FROM cotizaciones_rapidas WHERE phone = ANY ($1)) AS leads,
              (SELECT count(DISTINCT c.id)::int FROM contacts c JOIN cotizaciones_rapidas l ON l.contact_id = c.id
               WHERE c.phone = ANY ($1) AND l.phone = c.phone) AS contacts`,
      [phones.map((phone) => `+52${phone}`)],
    );
    expect(stored).toEqual({ leads: 30, contacts: 30 });
  });
});
