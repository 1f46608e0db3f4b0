import { describe, expect, it } from 'vitest';
import { PREPARED_STATEMENTS_MAX, plannedEachRun, preparesStatements, withDatabase } from './database.ts';

/** The statements prepared on the connection that runs this query (PostgreSQL's own view of the session). */
const PREPARED = 'SELECT statement FROM pg_prepared_statements WHERE statement = ANY ($1::text[])';

describe('statements with values are prepared once per connection (decision 0080)', () => {
  it('a transaction runs its statements prepared, by name, and their answers are the same', async () => {
    const text = 'SELECT $1::int + 1 AS next';
    const seen = await withDatabase((db) =>
      db.transaction(async (tx) => {
        const first = await tx.query<{ next: number }>(text, [1]);
        const second = await tx.query<{ next: number }>(text, [41]);
        const prepared = await tx.query<{ statement: string }>(PREPARED, [[text]]);
        return { answers: [first.rows[0]?.next, second.rows[0]?.next], prepared: prepared.rows.length };
      }),
    );
    expect(seen).toEqual({ answers: [2, 42], prepared: 1 });
  });

  it('a statement without values keeps the simple protocol: several commands in one text still run', async () => {
    const result = await withDatabase((db) =>
      db.transaction(async (tx) => {
        await tx.query(
          'CREATE TEMP TABLE prepared_probe (n int) ON COMMIT DROP; INSERT INTO prepared_probe VALUES (7)',
        );
        return (await tx.query<{ n: number }>('SELECT n FROM prepared_probe WHERE n = $1', [7])).rows;
      }),
    );
    expect(result).toEqual([{ n: 7 }]);
  });

  it('never through a PgBouncer in transaction mode (a Neon "-pooler" host), where the next statement may reach another connection', () => {
    expect(preparesStatements('postgres://u:p@ep-cool-name-123456-pooler.us-east-2.aws.neon.tech/app')).toBe(false);
    expect(preparesStatements('postgres://u:p@ep-cool-name-123456.us-east-2.aws.neon.tech/app')).toBe(true);
    expect(preparesStatements('postgres://postgres:postgres@127.0.0.1:5432/app')).toBe(true);
  });

  it('a statement marked plannedEachRun runs unnamed (decision 0085): PostgreSQL plans it for its values each time', async () => {
    const marked = plannedEachRun('SELECT $1::int * 2 AS n');
    const seen = await withDatabase((db) =>
      db.transaction(async (tx) => {
        const answers = [(await tx.query<{ n: number }>(marked, [21])).rows[0]?.n];
        answers.push((await tx.query<{ n: number }>(marked, [4])).rows[0]?.n);
        const prepared = await tx.query<{ statement: string }>(PREPARED, [[marked]]);
        return { answers, prepared: prepared.rows.length };
      }),
    );
    expect(seen).toEqual({ answers: [42, 8], prepared: 0 });
  });

  it(`prepares at most ${PREPARED_STATEMENTS_MAX} distinct texts; the next ones run unnamed, with the same answers`, async () => {
    const texts = Array.from({ length: PREPARED_STATEMENTS_MAX + 2 }, (_, i) => `SELECT $1::int + ${i} AS n`);
    const { answers, prepared } = await withDatabase((db) =>
      db.transaction(async (tx) => {
        const answers: number[] = [];
        for (const text of texts) answers.push(Number((await tx.query<{ n: number }>(text, [1])).rows[0]?.n));
        const prepared = await tx.query<{ statement: string }>(PREPARED, [texts]);
        return { answers, prepared: new Set(prepared.rows.map((row) => row.statement)) };
      }),
    );
    expect(answers).toEqual(texts.map((_, i) => 1 + i));
    // The file's earlier statements (its own and the view's query) count towards the limit too: of these texts
    // the first are prepared, the last are not.
    expect(prepared.size).toBeLessThanOrEqual(PREPARED_STATEMENTS_MAX);
    expect(prepared.has(texts[0] as string)).toBe(true);
    expect(prepared.has(texts.at(-1) as string)).toBe(false);
  });
});
