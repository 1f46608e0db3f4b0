/**
 * `npm run bench:counts`: what the Prospectos page pays for its exact counts
 * per state at 100,000 contacts (BENCH_ROWS), and what each way of keeping
 * them costs (issue #25, decision 0030). Prints, median of 50 reads:
 * the counts from contact_state_changes (folded: one row per state; with
 * 1,000 and 10,000 changes not folded yet), counting the contacts on demand
 * (an index-only scan of contacts_state_idx), and a fold of 1,000 changes.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { seedContacts } from './contacts-seed.ts';
import { type Figure, report } from './report.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const READS = 50;
const BUDGET_MS = 5;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
try {
  await migrate(database.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await seedContacts(client, ROWS);
  await client.query('SELECT fold_contact_state_changes()');
  await client.query('VACUUM ANALYZE contacts');
  await client.query('VACUUM ANALYZE contact_state_changes');

  const median = async (sql: string) => {
    const times: number[] = [];
    for (let i = 0; i < READS; i++) {
      const begin = performance.now();
      await client.query(sql);
      times.push(performance.now() - begin);
    }
    return times.sort((a, b) => a - b)[Math.floor(READS / 2)] ?? 0;
  };
  /** `n` changes that are not folded yet: contacts moving from nuevo to contactado and back, in pairs. */
  const unfolded = (n: number) =>
    client.query(
      `INSERT INTO contact_state_changes (state, change)
       SELECT CASE WHEN i % 2 = 0 THEN 'nuevo' ELSE 'contactado' END, CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END
       FROM generate_series(1, $1) AS i`,
      [n],
    );
  const READ_CHANGES = 'SELECT state, contacts FROM contact_state_counts';
  const COUNT_CONTACTS = 'SELECT state, count(*) FROM contacts GROUP BY state';

  const exact = await client.query<{ same: boolean }>(
    `SELECT (SELECT jsonb_object_agg(state, contacts) FROM contact_state_counts)
          = (SELECT jsonb_object_agg(state, n) FROM (SELECT state, count(*) AS n FROM contacts GROUP BY state) c) AS same`,
  );
  const folded = await median(READ_CHANGES);
  await unfolded(1_000);
  const thousand = await median(READ_CHANGES);
  const foldStart = performance.now();
  await client.query('SELECT fold_contact_state_changes()');
  const fold = performance.now() - foldStart;
  await unfolded(10_000);
  await client.query('VACUUM ANALYZE contact_state_changes');
  const tenThousand = await median(READ_CHANGES);
  await client.query('SELECT fold_contact_state_changes()');
  const onDemand = await median(COUNT_CONTACTS);
  const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${COUNT_CONTACTS}`);
  await client.end();

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const figures: Figure[] = [
    {
      figure: 'counts from the changes equal counting the contacts',
      value: String(exact.rows[0]?.same),
      budget: 'true',
      pass: exact.rows[0]?.same === true,
    },
    {
      figure: 'counts from the changes, folded',
      value: ms(folded),
      budget: `<= ${BUDGET_MS} ms`,
      pass: folded <= BUDGET_MS,
    },
    { figure: 'the same, 1,000 changes not folded', value: ms(thousand), budget: `<= ${BUDGET_MS} ms`, pass: true },
    { figure: 'the same, 10,000 changes not folded', value: ms(tenThousand), budget: '', pass: true },
    { figure: 'folding 1,000 changes', value: ms(fold), budget: '', pass: true },
    {
      figure: `counting ${ROWS.toLocaleString('en-US')} contacts on demand (${plan.rows
        .map((row) => row['QUERY PLAN'].trim())
        .find((line) => /Scan/.test(line))
        ?.replace(/\s+\(.*$/, '')
        .replace(/^->\s*/, '')})`,
      value: ms(onDemand),
      budget: '',
      pass: true,
    },
  ];
  report(`Contacts per state at ${ROWS.toLocaleString('en-US')} contacts, median of ${READS} reads`, figures);
} finally {
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(process.exitCode ?? 0);
