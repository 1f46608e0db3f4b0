import type { Queryable } from '../db/database.ts';

export interface RateLimitRule {
  /** What is counted, e.g. `lead:quick-quotes`. */
  bucket: string;
  /** Requests allowed per window; 0 means no limit. */
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one request of `subject` (an IP address) in a fixed window kept in
 * PostgreSQL, so the limit holds across function instances. Returns whether
 * the request is within the limit.
 */
export async function hitRateLimit(db: Queryable, rule: RateLimitRule, subject: string): Promise<boolean> {
  if (rule.limit === 0) return true;
  const { rows } = await db.query<{ hits: number }>(
    `INSERT INTO rate_limit_counters (bucket, subject, window_start)
     VALUES ($1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3))
     ON CONFLICT (bucket, subject, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
     RETURNING hits`,
    [rule.bucket, subject, rule.windowSeconds],
  );
  if (Math.random() < 0.01) {
    await db.query(`DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day'`);
  }
  return (rows[0]?.hits ?? 0) <= rule.limit;
}
