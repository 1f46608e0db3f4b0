import { describe, expect, it } from 'vitest';
import { withDatabase } from '../db/database.ts';
import { listContacts } from './list.ts';

/**
 * Decision 0085: a search's best plan depends on its word (a rare one reads
 * the trigram index, one every fourth contact has reads the state's index
 * and stops at the cap), so its statements are planned at each run; the
 * list without a search keeps its statements prepared (decision 0080).
 */
describe('the list of contacts and its statements', () => {
  it('runs a search unprepared (its page and both counts), and the plain list prepared', async () => {
    const prepared = await withDatabase((db) =>
      db.transaction(async (tx) => {
        await listContacts(tx, { q: 'merida', state: 'nuevo' }, null, 50);
        await listContacts(tx, { state: 'nuevo' }, null, 50);
        const { rows } = await tx.query<{ statement: string }>(
          `SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1`,
          ['%FROM contacts c%'],
        );
        return rows.map((row) => row.statement);
      }),
    );
    expect(prepared.some((statement) => statement.includes('ORDER BY c.last_activity_at DESC'))).toBe(true);
    expect(prepared.filter((statement) => statement.includes('search_text'))).toEqual([]);
  });
});
