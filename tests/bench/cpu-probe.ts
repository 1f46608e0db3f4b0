/**
 * CPU time per lead, ours against the floor (issue #25): what a load-robust
 * ratio rests on. On a 2-core machine the throughput of either server is
 * bounded by the CPU all three processes (load generator, server,
 * PostgreSQL) spend per request, so this figure, unlike requests per second,
 * does not move with what else the machine runs.
 *
 * Sends BENCH_REQUESTS (default 4,000) leads, 20 at a time, to each, after a
 * warm-up, and reads /proc: the server process, the postmaster and its
 * children (live and reaped). Used by bench:api; runnable alone with
 * `node tests/bench/cpu-probe.ts` (Node 24).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { type Figure, record } from './report.ts';

const TICK_MS = 1000 / 100; // USER_HZ

/** utime + stime (+ children's when `reaped`) of `pid`, in ms. */
function cpuOf(pid: number, reaped = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is state (field 3): utime is field 14, stime 15, cutime 16, cstime 17.
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
    return ((utime ?? 0) + (stime ?? 0) + (reaped ? (cutime ?? 0) + (cstime ?? 0) : 0)) * TICK_MS;
  } catch {
    return 0;
  }
}

function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** The postmaster of `dataDir` and everything it runs, in ms of CPU. */
function postgresCpu(dataDir: string): number {
  const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return cpuOf(pid, true) + childrenOf(pid).reduce((sum, child) => sum + cpuOf(child), 0);
}

export interface CpuPerLead {
  server: number;
  postgres: number;
  total: number;
  requests: number;
}

/** Loads `url` with `count` new-contact leads, 20 at a time; CPU ms per 2xx of `serverPid` and PostgreSQL. */
export async function cpuPerLead(url: string, serverPid: number, dataDir: string, count: number): Promise<CpuPerLead> {
  let sequence = Math.floor(Math.random() * 1e8);
  const fire = (amount: number) =>
    autocannon({
      url,
      connections: 20,
      amount,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => {
            const n = ++sequence;
            return {
              ...request,
              body: JSON.stringify({
                name: `Cpu ${n}`,
                phone: `9${String(n % 1e9).padStart(9, '0')}`,
                email: `cpu${n}@example.mx`,
                origin: 'hero',
              }),
            };
          },
        },
      ],
    });
  await fire(Math.min(1000, count));
  const before = { server: cpuOf(serverPid), postgres: postgresCpu(dataDir) };
  const result = await fire(count);
  const after = { server: cpuOf(serverPid), postgres: postgresCpu(dataDir) };
  const ok = result['2xx'];
  const server = (after.server - before.server) / ok;
  const postgres = (after.postgres - before.postgres) / ok;
  return { server, postgres, total: server + postgres, requests: ok };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.env.BENCH_REQUESTS ?? 4000);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-cpu-'));
  await chmod(dataDir, 0o755);
  const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  try {
    await migrate(database.url);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('CREATE TABLE floor_leads (LIKE cotizaciones_rapidas INCLUDING ALL)');
    await admin.end();
    const env = { DATABASE_URL: database.url, LEAD_RATE_LIMIT: '0', PLATFORM_RATE_LIMIT: '0' };
    const floor = await spawnServer(env, { script: 'tests/bench/floor-server.ts' });
    const ours = await spawnServer(env);
    const only = process.env.BENCH_ONLY;
    const figures: Figure[] = [];
    for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 2); round++) {
      for (const [name, server] of [
        ['floor', floor],
        ['ours', ours],
      ] as const) {
        if (only && only !== name) continue;
        const figure = await cpuPerLead(`${server.url}/api/quick-quotes`, server.process.pid as number, dataDir, count);
        console.log(
          `${name}: server ${figure.server.toFixed(3)} ms, postgres ${figure.postgres.toFixed(3)} ms, total ${figure.total.toFixed(3)} ms of CPU per lead (${figure.requests} leads)`,
        );
        figures.push({
          figure: `${name}, round ${round + 1}: CPU per lead, server + PostgreSQL (${figure.requests} leads)`,
          value: `${figure.server.toFixed(3)} + ${figure.postgres.toFixed(3)} = ${figure.total.toFixed(3)} ms`,
          budget: 'not budgeted',
          pass: true,
        });
      }
    }
    record('CPU time per lead, ours against the floor', figures);
    await floor.stop();
    await ours.stop();
  } finally {
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}
