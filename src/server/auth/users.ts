import { recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';

export type Role = 'admin' | 'asesor';

export interface SessionUser {
  id: string;
  email: string;
  /** Chosen when accepting an invitation; the first administrator may have none. */
  name: string | null;
  role: Role | null;
  /** role === 'admin' */
  admin: boolean;
}

/** What the history and the activity log call a member: the name, or the e-mail. */
export const displayName = (user: Pick<SessionUser, 'name' | 'email'>): string => user.name ?? user.email;

/** How a session was opened. */
export type SignInMethod = 'password' | 'passkey';

/**
 * A member as their session sees them: `passkeyPending` while the team
 * requires a passkey for administrators and this administrator's session was
 * opened with a password (it reaches only their own account).
 */
export type SessionMember = SessionUser & { passkeySession: boolean; passkeyPending: boolean };

/** What /api/auth/session, the login and the setup answer about the signed-in member. */
export function sessionAnswer(user: SessionUser & { passkeyPending?: boolean }) {
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    admin: user.admin,
    passkeyPending: user.passkeyPending === true,
  };
}

/** Whether an administrator signing in with a password now must use a passkey (the team's setting). */
export async function adminPasskeyRequired(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ on: boolean }>('SELECT admin_passkey_required AS on FROM team_settings');
  return rows[0]?.on === true;
}

/** The columns of a SessionUser, from `users u` (one role per member). */
const MEMBER_COLUMNS = `u.id, u.email, u.name,
  (SELECT r.role FROM user_roles r WHERE r.user_id = u.id) AS role,
  EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admin`;

/** Whether the one-time setup has been done (an administrator was created by it). */
export async function adminExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM first_admin_setup)`);
  return rows[0]?.exists === true;
}

/**
 * Creates the first administrator, with its entry in the activity log, only
 * while the setup was never done. Concurrent attempts race on the key of
 * `first_admin_setup` (one row, ever): one wins, the others fail whole (no
 * user row without its role). Returns null when the setup was already done.
 */
export async function createFirstAdmin(db: Database, email: string, passwordHash: string): Promise<SessionUser | null> {
  try {
    return await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `WITH new_user AS (
           INSERT INTO users (email, password_hash)
           SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM first_admin_setup)
           RETURNING id
         ), setup AS (
           INSERT INTO first_admin_setup (user_id) SELECT id FROM new_user
         )
         INSERT INTO user_roles (user_id, role) SELECT id, 'admin' FROM new_user RETURNING user_id AS id`,
        [email, passwordHash],
      );
      if (!rows[0]) return null;
      const admin: SessionUser = { id: rows[0].id, email, name: null, role: 'admin', admin: true };
      await recordActivity(tx, {
        actor: { id: admin.id, name: displayName(admin) },
        kind: 'setup',
        summary: `Creó la cuenta de administrador ${email}`,
      });
      return admin;
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return null; // lost the race
    throw error;
  }
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
): Promise<(SessionUser & { passwordHash: string; active: boolean }) | null> {
  const { rows } = await db.query<SessionUser & { passwordHash: string; active: boolean }>(
    `SELECT ${MEMBER_COLUMNS}, u.password_hash AS "passwordHash", u.deactivated_at IS NULL AS active
     FROM users u WHERE u.email = $1`,
    [email],
  );
  return rows[0] ?? null;
}

/**
 * The user of a live session, read again on every request: a revoked or
 * expired session, a deactivated member, or a changed role takes effect at once.
 */
export async function findSessionUser(db: Queryable, sessionId: string, userId: string): Promise<SessionMember | null> {
  const { rows } = await db.query<SessionUser & { passkeySession: boolean; required: boolean }>(
    `SELECT ${MEMBER_COLUMNS}, s.method = 'passkey' AS "passkeySession",
       (SELECT admin_passkey_required FROM team_settings) AS required
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()
       AND u.deactivated_at IS NULL`,
    [sessionId, userId],
  );
  const row = rows[0];
  if (!row) return null;
  const { required, ...user } = row;
  return { ...user, passkeyPending: user.admin && required === true && !user.passkeySession };
}

/** An active member by id (signing in with a passkey), or null. */
export async function findSessionUserById(db: Queryable, userId: string): Promise<SessionUser | null> {
  const { rows } = await db.query<SessionUser>(
    `SELECT ${MEMBER_COLUMNS} FROM users u WHERE u.id = $1 AND u.deactivated_at IS NULL`,
    [userId],
  );
  const user = rows[0];
  return user?.role ? user : null;
}

/** Opens a server-side session for a user; returns its id (the token's `jti`). */
export async function openSession(
  db: Queryable,
  userId: string,
  hours: number,
  method: SignInMethod = 'password',
): Promise<string> {
  // Every session opened is an access (a password, a passkey, the setup, an accepted invitation): "Último acceso".
  const { rows } = await db.query<{ id: string }>(
    `WITH accessed AS (UPDATE users SET last_sign_in_at = now() WHERE id = $1)
     INSERT INTO sessions (user_id, expires_at, method) VALUES ($1, now() + make_interval(hours => $2), $3) RETURNING id`,
    [userId, hours, method],
  );
  await db.query(`DELETE FROM sessions WHERE expires_at < now() - interval '1 day'`);
  return (rows[0] as { id: string }).id;
}

/**
 * Ends every session of a member (deactivation, password reset), or all but `except` (password change),
 * and forgets the devices turned on for reminders in them (or before devices kept their session): a device
 * no session of the member holds gets no more names and phones of leads (migration 0051).
 */
export async function revokeSessionsOf(db: Queryable, userId: string, except: string | null = null): Promise<void> {
  await db.query(
    `WITH ended AS (
       UPDATE sessions SET revoked_at = now()
       WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid))
     DELETE FROM push_subscriptions
     WHERE user_id = $1 AND ($2::uuid IS NULL OR session_id IS DISTINCT FROM $2::uuid)`,
    [userId, except],
  );
}

/** Ends one session (signing out), and forgets the device turned on for reminders in it. */
export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(
    `WITH ended AS (UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL)
     DELETE FROM push_subscriptions WHERE session_id = $1`,
    [sessionId],
  );
}

/**
 * While the team requires passkeys for administrators, an administrator who
 * has one and signed in with a password changes no credential (passkeys,
 * password) until they sign in with a passkey: a stolen password alone cannot
 * take the account over or sign the owner's passkey sessions out. Without a
 * passkey yet, such a session may add the first one.
 */
export async function passkeyFirst(db: Queryable, user: SessionMember): Promise<boolean> {
  if (!user.passkeyPending) return false;
  const { rows } = await db.query<{ has: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1) AS has',
    [user.id],
  );
  return rows[0]?.has === true;
}
