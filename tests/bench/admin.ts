/**
 * `npm run bench:admin`: the administrator's budget of issue #4, with 100,000
 * rows in each lead table on a fresh embedded PostgreSQL:
 * - first page of each list through the local server: p95 <= 50 ms;
 * - CSV export of all 100,000 rows of each table: the server's memory (RSS)
 *   grows by at most 64 MB while it streams.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { LEAD_KINDS } from '../../src/lib/admin/columns.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { setupAdmin } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { type Figure, report } from './report.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const REQUESTS = 300;
const CONCURRENCY = 4;
const BUDGET = { p95Ms: 50, memoryMb: 64 };

const SEED = [
  `INSERT INTO cotizaciones_rapidas (name, phone, email, origin, utm_source, landing_path, created_at)
   SELECT 'Visitante ' || n, '+5299' || lpad(n::text, 8, '0'), 'v' || n || '@correo.mx', 'hero', 'facebook', '/',
          now() - n * interval '1 minute'
   FROM generate_series(1, $1) AS n`,
  `INSERT INTO quote_requests (source, name, phone, state, municipality, has_land, need_land_help, house_size, created_at)
   SELECT 'prefiltro', 'Comprador ' || n, '+5299' || lpad(n::text, 8, '0'), 'Yucatán', 'Mérida', 'tengo-terreno',
          '0-60-dias', 'vivienda-propia', now() - n * interval '1 minute'
   FROM generate_series(1, $1) AS n`,
  `INSERT INTO partner_applications (name, phone, role, municipality, investment, timeline, legal_documentation,
                                     consultancy_payment, score, status, created_at)
   SELECT 'Socio ' || n, '+5299' || lpad(n::text, 8, '0'), 'desarrollador', 'Tulum', '5m+', '0-3-meses', 'si', 'si',
          13, 'approved', now() - n * interval '1 minute'
   FROM generate_series(1, $1) AS n`,
];

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-admin-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
console.log(`Seeding ${ROWS.toLocaleString('en')} rows in each lead table…`);
for (const statement of SEED) await client.query(statement, [ROWS]);
await client.query('ANALYZE');
await client.end();

const server = await spawnServer({ DATABASE_URL: database.url });
const pid = server.process.pid as number;
const rows: Figure[] = [];

try {
  const cookie = await setupAdmin(server.url);
  for (const kind of LEAD_KINDS) {
    const url = `${server.url}/api/admin/${kind}`;
    await fetch(url, { headers: { Cookie: cookie } }); // warm-up
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < REQUESTS) {
          const started = performance.now();
          const response = await fetch(url, { headers: { Cookie: cookie } });
          const body = (await response.json()) as { items: unknown[]; total: number };
          latencies.push(performance.now() - started);
          if (response.status !== 200 || body.items.length !== 50 || body.total !== ROWS) {
            throw new Error(`${kind}: unexpected answer ${response.status}`);
          }
        }
      }),
    );
    const p95 = percentile(latencies, 95);
    rows.push({
      figure: `${kind} first page p95 (${REQUESTS} requests, ${CONCURRENCY} at a time)`,
      value: `${p95.toFixed(1)} ms`,
      budget: `<= ${BUDGET.p95Ms} ms`,
      pass: p95 <= BUDGET.p95Ms,
    });
  }

  for (const kind of LEAD_KINDS) {
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/admin/${kind}/export.csv`, { headers: { Cookie: cookie } });
    let lines = 0;
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      lines += decoder.decode(chunk, { stream: true }).split('\r\n').length - 1;
    }
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const seconds = (performance.now() - started) / 1000;
    const growth = peak - before;
    rows.push({
      figure: `${kind} CSV: ${(lines - 1).toLocaleString('en')} rows in ${seconds.toFixed(1)} s, server memory growth`,
      value: `${growth.toFixed(1)} MB`,
      budget: `<= ${BUDGET.memoryMb} MB, all ${ROWS.toLocaleString('en')} rows`,
      pass: growth <= BUDGET.memoryMb && lines - 1 === ROWS,
    });
  }

  report(
    `Admin endpoints on the local server, ${ROWS.toLocaleString('en')} rows per table, ${os.cpus().length} cores`,
    rows,
  );
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}
