import type { Queryable } from '../db/database.ts';

/** Failed logins allowed per e-mail and per IP address within the window. */
export const LOGIN_FAILURES_ALLOWED = 5;
export const LOGIN_WINDOW_MINUTES = 15;

/** Whether this e-mail or this IP has used up its failed attempts (sliding 15-minute window). */
export async function loginBlocked(db: Queryable, email: string, ip: string): Promise<boolean> {
  const { rows } = await db.query<{ by_email: number; by_ip: number }>(
    `SELECT count(*) FILTER (WHERE email = $1)::int AS by_email,
            count(*) FILTER (WHERE ip = $2)::int AS by_ip
     FROM login_failures
     WHERE (email = $1 OR ip = $2) AND failed_at > now() - make_interval(mins => $3)`,
    [email, ip, LOGIN_WINDOW_MINUTES],
  );
  const counts = rows[0];
  return (counts?.by_email ?? 0) >= LOGIN_FAILURES_ALLOWED || (counts?.by_ip ?? 0) >= LOGIN_FAILURES_ALLOWED;
}

export async function recordLoginFailure(db: Queryable, email: string, ip: string): Promise<void> {
  await db.query('INSERT INTO login_failures (email, ip) VALUES ($1, $2)', [email.slice(0, 254), ip.slice(0, 64)]);
  await db.query(`DELETE FROM login_failures WHERE failed_at < now() - interval '1 day'`);
}

/** A successful login forgets the e-mail's failures. */
export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE email = $1', [email]);
}
