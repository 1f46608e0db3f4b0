import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';
import { revokeSessionsOf } from './users.ts';

/** The stored hash a member's current password is compared with ('' for none). */
export async function storedPasswordHash(db: Database, userId: string): Promise<string> {
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
  return rows[0]?.password_hash ?? '';
}

/**
 * A member's new password: their other sessions end (`keep` stays), and the
 * activity log says so, in one transaction.
 */
export async function changePassword(
  db: Database,
  member: Actor,
  passwordHash: string,
  keep: string,
  ip: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [member.id, passwordHash]);
    await revokeSessionsOf(tx, member.id, keep);
    await recordActivity(tx, {
      actor: member,
      kind: 'password_changed',
      summary: `${member.name} cambió su contraseña (se cerraron sus otras sesiones)`,
      ip,
    });
  });
}
