import { expect, test } from 'vitest';
import type { Queryable, QueryResult } from '../db/database.ts';
import { currentMetrics } from './metrics.ts';

/**
 * A database whose answers wait until the test lets them through, one
 * computation at a time; each computation's figures say which one it was
 * (its number as the count of unattended contacts).
 */
function heldDatabase() {
  const started: (() => void)[] = [];
  const db: Queryable = {
    query<Row>(text: string): Promise<QueryResult<Row>> {
      const answer = (rows: unknown[]) => ({ rows }) as unknown as QueryResult<Row>;
      if (text.includes('generate_series')) {
        // The first of a computation's five queries: the computation starts here.
        return new Promise((resolve) => started.push(() => resolve(answer([]))));
      }
      const unattended = started.length;
      return Promise.resolve(answer(text.includes('unattended') ? [{ unattended, overdue: 0 }] : []));
    },
  };
  return { db, started, release: (index: number) => started[index]?.() };
}

test('an answer is never computed before its request arrived; requests during a computation share the next one', async () => {
  const { db, started, release } = heldDatabase();
  const first = currentMetrics(db);
  expect(started).toHaveLength(1);

  // Two requests while the first computation runs: neither gets its figures (they may predate a new lead).
  const second = currentMetrics(db);
  const third = currentMetrics(db);
  expect(started).toHaveLength(1);
  release(0);
  expect((await first).unattended).toBe(1);

  // They share one computation, started once the first ended.
  await expect.poll(() => started.length).toBe(2);
  release(1);
  expect((await second).unattended).toBe(2);
  expect(await third).toBe(await second);

  // Once nothing runs, a request computes at once.
  const fourth = currentMetrics(db);
  expect(started).toHaveLength(3);
  release(2);
  expect((await fourth).unattended).toBe(3);
});
