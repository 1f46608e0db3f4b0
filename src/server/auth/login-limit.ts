import type { Database, Queryable } from '../db/database.ts';

/** Failed logins allowed per e-mail and per IP address within the window. */
export const LOGIN_FAILURES_ALLOWED = 5;
export const LOGIN_WINDOW_MINUTES = 15;

/**
 * Counts a login attempt before its password is compared: under an advisory
 * lock per e-mail and per IP (always taken in that order, so two attempts
 * cannot deadlock), it refuses when the e-mail or the IP already has five
 * failures in the window, and otherwise records this attempt as a failure.
 * A burst of guesses sent at once is therefore checked five times at most.
 * Returns the reserved row's id, or null when the attempt is refused.
 */
export async function reserveLoginAttempt(db: Database, email: string, ip: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`login-email:${email}`]);
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`login-ip:${ip}`]);
    const { rows } = await tx.query<{ by_email: number; by_ip: number }>(
      `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
              count(*) FILTER (WHERE ip = $2)::int AS by_ip
       FROM login_failures
       WHERE (email = $1 OR ip = $2) AND failed_at > now() - make_interval(mins => $3)`,
      [email, ip, LOGIN_WINDOW_MINUTES],
    );
    const counts = rows[0];
    if ((counts?.by_email ?? 0) >= LOGIN_FAILURES_ALLOWED || (counts?.by_ip ?? 0) >= LOGIN_FAILURES_ALLOWED) {
      return null;
    }
    const inserted = await tx.query<{ id: string }>(
      'INSERT INTO login_failures (email, ip) VALUES ($1, $2) RETURNING id::text',
      [email, ip],
    );
    return inserted.rows[0]?.id ?? null;
  });
}

/** A successful login forgets the e-mail's failures, this attempt's included; old rows go too. */
export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE email = $1', [email]);
  await db.query(`DELETE FROM login_failures WHERE failed_at < now() - interval '1 day'`);
}
