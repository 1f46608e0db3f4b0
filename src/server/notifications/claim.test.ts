import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_CHANNELS } from '../../lib/admin/notifications.ts';

/**
 * Decision 0046 on the real database: a channel's fresh run claims its oldest
 * waiting deliveries by walking its part of one index, however many are
 * waiting and whatever the table's statistics say. Under load the deliveries
 * waiting grow faster than autovacuum analyses them; the planner, expecting a
 * handful, read every waiting delivery and sorted them to take 8.
 */
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

/** Index entries and rows the current transaction has read from the deliveries' table so far. */
async function read(): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT sum(pg_stat_get_xact_tuples_returned(oid) + pg_stat_get_xact_tuples_fetched(oid)) AS n
     FROM pg_class
     WHERE oid = 'notification_deliveries'::regclass
        OR oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'notification_deliveries'::regclass)`,
  );
  return Number(rows[0]?.n);
}

describe("a channel's fresh claim", () => {
  it('takes its oldest 8, of its own channel, reading a few dozen entries though 6,000 wait unknown to the statistics', async () => {
    // All in one transaction, rolled back: the other test files' deliveries are never touched
    // (these are older than any of theirs, so they are the ones claimed).
    await client.query('BEGIN');
    try {
      await client.query(
        `INSERT INTO notification_deliveries
           (purpose, channel, lead_kind, lead_id, status, attempts, sent_at, created_at, updated_at)
         SELECT 'lead', channel, 'quick-quotes', gen_random_uuid(), 'sent', 1, now(),
                timestamptz '2000-01-01Z' + n * interval '1 second', timestamptz '2000-01-01Z' + n * interval '1 second'
         FROM generate_series(1, 2000) AS n, unnest($1::text[]) AS channel`,
        [NOTIFICATION_CHANNELS],
      );
      // The statistics see them sent; then they are waiting, never tried (as a burst of leads leaves them).
      await client.query('ANALYZE notification_deliveries');
      await client.query(
        `UPDATE notification_deliveries SET status = 'pending', attempts = 0, sent_at = NULL
         WHERE updated_at < timestamptz '2000-02-01Z'`,
      );
      const before = await read();
      const { rows } = await client.query<{ channel: string; created_at: Date; status: string; attempts: number }>(
        'SELECT channel, created_at, status, attempts FROM claim_fresh_deliveries($1, 8, 120) ORDER BY created_at',
        ['webhook'],
      );
      const entries = (await read()) - before;
      expect(rows).toHaveLength(8);
      expect(rows.every((row) => row.channel === 'webhook' && row.status === 'sending' && row.attempts === 1)).toBe(
        true,
      );
      // Its oldest: the first 8 seconds of the year 2000.
      expect(rows.map((row) => row.created_at.toISOString())).toEqual(
        Array.from({ length: 8 }, (_, n) => `2000-01-01T00:00:0${n + 1}.000Z`),
      );
      expect(entries).toBeLessThan(100);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
