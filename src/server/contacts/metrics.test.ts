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

test('figures are never kept: requests during a computation share it, the next request computes again', async () => {
  const { db, started, release } = heldDatabase();
  const first = currentMetrics(db);
  const during = currentMetrics(db);
  expect(started).toHaveLength(1);
  release(0);
  expect((await first).unattended).toBe(1);
  expect(await during).toBe(await first);

  // Once it ended, the next request does not get those figures (a lead may have come since).
  const next = currentMetrics(db);
  expect(started).toHaveLength(2);
  release(1);
  expect((await next).unattended).toBe(2);
});

test('a failed computation fails the requests that shared it, and the next one tries again', async () => {
  let fail = true;
  const db: Queryable = {
    query: (() =>
      fail ? Promise.reject(new Error('database down')) : Promise.resolve({ rows: [] })) as Queryable['query'],
  };
  await expect(currentMetrics(db)).rejects.toThrow('database down');
  fail = false;
  expect((await currentMetrics(db)).leadsPerWeek).toEqual([]);
});
