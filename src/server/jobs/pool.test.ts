import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { workerPool } from './pool.ts';

describe("the worker's pool", () => {
  it('ignores a second release of a client (graphile-worker can release its LISTEN client twice as the database dies)', async () => {
    const pool = workerPool(parseConfig({ ...process.env }), 1);
    try {
      const client = await pool.connect();
      client.release();
      expect(() => client.release()).not.toThrow();
      // The client went back once: the pool still serves.
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(pool.totalCount).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
