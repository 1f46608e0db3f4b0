import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { SignInMethod } from './users.ts';

/**
 * The sign-in locks (decisions 0008 and 0011, issue #23). Failures are
 * counted per method (a password, the current one of a password change
 * included; or a passkey) in a sliding 15-minute window:
 * - five from one address lock that address, for every account (and so for
 *   the account and address together): a stranger locks out only themselves;
 * - fifty for one account from anywhere lock that account, except at an
 *   address where its member signed in during the last 30 days: a guesser
 *   who rotates addresses is still bounded, and cannot keep the member out
 *   of the places they work from (nor of the other method).
 * A password's account is the e-mail typed; a passkey's is the e-mail of the
 * member its credential id names, or UNKNOWN_PASSKEY.
 */
export const LOGIN_WINDOW_MINUTES = 15;
export const FAILURES_PER_ADDRESS = 5;
export const FAILURES_PER_ACCOUNT = 50;

/** What a locked-out visitor reads (429). */
export const SIGN_IN_BLOCKED = 'Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo.';

/** The account of passkey attempts whose credential names no member: they share one count. */
export const UNKNOWN_PASSKEY = '';

/** Rows failed sign-ins may add to the activity log per window: per member, and for all strangers together. */
const LOG_ROWS = 10;
/** Rows saying a lock engaged, per member (and for strangers) and window. */
const LOCK_ROWS = 3;

/** An attempt counted as a failure until it succeeds (clearLoginFailures). */
export interface LoginAttempt {
  id: string;
  method: SignInMethod;
  account: string;
  ip: string;
  /** No failure for this account from this address in the window before this one. */
  firstFromAddress: boolean;
  /** The lock this attempt engages if it fails: its address's fifth failure, or its account's fiftieth. */
  locks: 'address' | 'account' | null;
}

/**
 * Counts a sign-in attempt before its secret is checked: under an advisory
 * lock per account and per address (always taken in that order, so two
 * attempts cannot deadlock), it refuses when either is locked, and otherwise
 * records this attempt as a failure. A burst sent at once is therefore
 * checked five times at most. Returns the attempt, or null when refused.
 */
export async function reserveLoginAttempt(
  db: Database,
  method: SignInMethod,
  account: string,
  ip: string,
): Promise<LoginAttempt | null> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`login-${method}-account:${account}`]);
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`login-${method}-ip:${ip}`]);
    const { rows } = await tx.query<{ by_pair: number; by_account: number; by_ip: number }>(
      `SELECT count(*) FILTER (WHERE email = $2 AND ip = $3)::int AS by_pair,
              count(*) FILTER (WHERE email = $2)::int AS by_account,
              count(*) FILTER (WHERE ip = $3)::int AS by_ip
       FROM login_failures
       WHERE method = $1 AND (email = $2 OR ip = $3) AND failed_at > now() - make_interval(mins => $4)`,
      [method, account, ip, LOGIN_WINDOW_MINUTES],
    );
    const { by_pair = 0, by_account = 0, by_ip = 0 } = rows[0] ?? {};
    if (by_ip >= FAILURES_PER_ADDRESS) return null;
    if (by_account >= FAILURES_PER_ACCOUNT && !(await signedInFrom(tx, account, ip))) return null;
    const inserted = await tx.query<{ id: string }>(
      'INSERT INTO login_failures (method, email, ip) VALUES ($1, $2, $3) RETURNING id::text',
      [method, account, ip],
    );
    return {
      id: (inserted.rows[0] as { id: string }).id,
      method,
      account,
      ip,
      firstFromAddress: by_pair === 0,
      locks: by_account + 1 >= FAILURES_PER_ACCOUNT ? 'account' : by_ip + 1 >= FAILURES_PER_ADDRESS ? 'address' : null,
    };
  });
}

/** How long an address where a member signed in stays theirs: the account's ceiling does not lock it. */
const KNOWN_ADDRESS_DAYS = 30;

/**
 * Whether the member of `account` signed in from `ip` in the last 30 days (the
 * activity log keeps each sign-in with its address). A stranger who rotates
 * addresses to reach the account's ceiling then locks it everywhere but
 * where the member usually works; their own address lock still holds there.
 */
async function signedInFrom(db: Queryable, account: string, ip: string): Promise<boolean> {
  if (account === UNKNOWN_PASSKEY) return false;
  const { rows } = await db.query<{ known: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM activity_log a JOIN users u ON u.id = a.actor_id
       WHERE u.email = $1 AND a.kind = 'sign_in' AND a.ip = $2 AND a.at > now() - make_interval(days => $3)
     ) AS known`,
    [account, ip, KNOWN_ADDRESS_DAYS],
  );
  return rows[0]?.known === true;
}

/**
 * A successful attempt forgets the failures of its account from its address,
 * itself included (failures from elsewhere still count towards the account's
 * ceiling); rows older than a day go too.
 */
export async function clearLoginFailures(db: Queryable, attempt: LoginAttempt): Promise<void> {
  await db.query('DELETE FROM login_failures WHERE method = $1 AND email = $2 AND ip = $3', [
    attempt.method,
    attempt.account,
    attempt.ip,
  ]);
  await db.query(`DELETE FROM login_failures WHERE failed_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM sign_in_log_quota WHERE window_start < now() - interval '1 day'`);
}

/**
 * Takes one of `allowed` rows of `bucket` in the current 15-minute window:
 * the number taken, or null when none is left.
 */
async function takeLogRow(db: Queryable, bucket: string, allowed: number): Promise<number | null> {
  const { rows } = await db.query<{ used: number }>(
    `INSERT INTO sign_in_log_quota AS q (bucket, window_start, used)
     VALUES ($1, date_bin(make_interval(mins => $2), now(), TIMESTAMPTZ '2000-01-01 00:00:00+00'), 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET used = q.used + 1 WHERE q.used < $3
     RETURNING used`,
    [bucket.slice(0, 100), LOGIN_WINDOW_MINUTES, allowed],
  );
  return rows[0]?.used ?? null;
}

/** How the log names what a failed attempt tried. */
function tried(attempt: LoginAttempt): string {
  if (attempt.method === 'password') return attempt.account;
  return attempt.account ? `una llave de acceso de ${attempt.account}` : 'una llave de acceso desconocida';
}

function lockSummary(attempt: LoginAttempt): string {
  if (attempt.locks === 'address') {
    const what = attempt.method === 'password' ? 'inicio de sesión' : 'inicio de sesión con llave de acceso';
    return `Dirección bloqueada 15 minutos: ${FAILURES_PER_ADDRESS} intentos fallidos de ${what} (el último con ${tried(attempt)})`;
  }
  const what =
    attempt.method === 'password'
      ? `con contraseña de ${attempt.account}`
      : attempt.account
        ? `con llave de acceso de ${attempt.account}`
        : 'con llaves de acceso desconocidas';
  return `Inicio de sesión ${what} bloqueado 15 minutos: ${FAILURES_PER_ACCOUNT} intentos fallidos desde varias direcciones`;
}

/**
 * Records a failed attempt in the append-only activity log without letting
 * anyone grow it without bound: a row for the first failure of an account
 * from an address in the window (with `summary`, the e-mail and the address),
 * and one when the attempt engages a lock. Each member, and all strangers
 * (e-mails and passkeys of nobody) together, get at most LOG_ROWS such rows
 * and LOCK_ROWS lock rows per 15-minute window; past them, one row says more
 * came. The counts live in sign_in_log_quota, which may be cleaned.
 */
export async function recordFailedSignIn(
  db: Queryable,
  attempt: LoginAttempt,
  failure: { member: Actor | null; summary: string },
): Promise<void> {
  if (!attempt.locks && !attempt.firstFromAddress) return;
  const bucket = failure.member ? `member:${failure.member.id}` : 'strangers';
  const details = {
    ...(attempt.account ? { email: attempt.account } : {}),
    ...(attempt.locks ? { lock: attempt.locks } : {}),
  };
  const entry = { actor: failure.member, kind: 'sign_in_failed' as const, details, ip: attempt.ip };
  if (attempt.locks) {
    if (await takeLogRow(db, `locks:${bucket}`, LOCK_ROWS)) {
      await recordActivity(db, { ...entry, summary: lockSummary(attempt) });
    }
    return;
  }
  const taken = await takeLogRow(db, bucket, LOG_ROWS + 1);
  if (taken === null) return;
  if (taken <= LOG_ROWS) {
    await recordActivity(db, { ...entry, summary: failure.summary });
    return;
  }
  const who = failure.member ? attempt.account : 'correos o llaves de acceso desconocidos';
  await recordActivity(db, {
    ...entry,
    details: failure.member ? details : {},
    summary: `Siguen los intentos fallidos con ${who}: no se anotan más en estos 15 minutos`,
  });
}
