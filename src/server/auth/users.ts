import type { Queryable } from '../db/database.ts';

export interface SessionUser {
  id: string;
  email: string;
  admin: boolean;
}

export async function adminExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM user_roles WHERE role = 'admin')`);
  return rows[0]?.exists === true;
}

/**
 * Creates the first administrator in one statement, only while there is none.
 * Concurrent attempts race on the unique index of the admin role: one wins,
 * the others fail whole (no user row without its role). Returns null when an
 * administrator already exists.
 */
export async function createFirstAdmin(
  db: Queryable,
  email: string,
  passwordHash: string,
): Promise<SessionUser | null> {
  try {
    const { rows } = await db.query<{ id: string }>(
      `WITH new_user AS (
         INSERT INTO users (email, password_hash)
         SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM user_roles WHERE role = 'admin')
         RETURNING id
       )
       INSERT INTO user_roles (user_id, role) SELECT id, 'admin' FROM new_user RETURNING user_id AS id`,
      [email, passwordHash],
    );
    return rows[0] ? { id: rows[0].id, email, admin: true } : null;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') return null; // lost the race
    throw error;
  }
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
): Promise<(SessionUser & { passwordHash: string }) | null> {
  const { rows } = await db.query<SessionUser & { passwordHash: string }>(
    `SELECT u.id, u.email, u.password_hash AS "passwordHash",
            EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admin
     FROM users u WHERE u.email = $1`,
    [email],
  );
  return rows[0] ?? null;
}

/**
 * The user of a live session, read again on every request: a revoked or
 * expired session, or a removed role, takes effect at once.
 */
export async function findSessionUser(db: Queryable, sessionId: string, userId: string): Promise<SessionUser | null> {
  const { rows } = await db.query<SessionUser>(
    `SELECT u.id, u.email,
            EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admin
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [sessionId, userId],
  );
  return rows[0] ?? null;
}

/** Opens a server-side session for a user; returns its id (the token's `jti`). */
export async function openSession(db: Queryable, userId: string, hours: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + make_interval(hours => $2)) RETURNING id`,
    [userId, hours],
  );
  await db.query(`DELETE FROM sessions WHERE expires_at < now() - interval '1 day'`);
  return (rows[0] as { id: string }).id;
}

/** Ends one session (signing out). */
export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
}
