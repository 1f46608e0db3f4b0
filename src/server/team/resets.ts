import { RESET_MINUTES } from '../../lib/admin/team.ts';
import { recordActivity } from '../audit/activity.ts';
import { revokeSessionsOf } from '../auth/users.ts';
import type { Database, Queryable } from '../db/database.ts';
import { hashToken, newToken } from './tokens.ts';

/** Reset e-mails a member can receive in an hour, and that one address can have sent in an hour. */
export const RESET_EMAILS_PER_MEMBER_PER_HOUR = 3;
export const RESET_EMAILS_PER_ADDRESS_PER_HOUR = 10;

/**
 * A one-time password-reset link for an active member, valid 30 minutes;
 * null when the e-mail is nobody's, or when a request by e-mail is over its
 * limits (3 links a member in an hour, 10 from one address in an hour: a
 * stranger cannot fill a member's inbox; the caller answers the same
 * whatever happens). Earlier links of the member stop working. The command
 * (`npm run admin:reset-password`) has no limit. `removePasskeys` (its
 * --quitar-llaves) also removes every passkey of the member.
 */
export async function createReset(
  db: Database,
  email: string,
  requestedBy: { via: 'email' | 'command'; ip?: string | null; removePasskeys?: boolean },
): Promise<{ token: string; name: string; expiresAt: string } | null> {
  return db.transaction(async (tx) => {
    // The member's row is locked: requests for one member at once are counted one after another.
    const { rows } = await tx.query<{ id: string; name: string | null; email: string }>(
      `SELECT id, name, email FROM users WHERE email = $1 AND deactivated_at IS NULL FOR UPDATE`,
      [email],
    );
    const member = rows[0];
    if (!member) return null;
    if (requestedBy.via === 'email' && (await overLimit(tx, member.id, requestedBy.ip ?? null))) return null;
    await tx.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [member.id]);
    const { token, hash } = newToken();
    const inserted = await tx.query<{ expires_at: Date }>(
      `INSERT INTO password_resets (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(mins => $3)) RETURNING expires_at`,
      [member.id, hash, RESET_MINUTES],
    );
    const name = member.name ?? member.email;
    if (requestedBy.removePasskeys) {
      // The way back for an administrator whose only passkey is lost while passkeys are required.
      const removed = await tx.query('DELETE FROM passkeys WHERE user_id = $1', [member.id]);
      await recordActivity(tx, {
        actor: { id: member.id, name },
        kind: 'passkey_removed',
        summary: `Se quitaron con npm run admin:reset-password las ${removed.rowCount ?? 0} llaves de acceso de ${member.email}`,
      });
    }
    await recordActivity(tx, {
      actor: { id: member.id, name },
      kind: 'password_reset_requested',
      summary:
        requestedBy.via === 'email'
          ? `Se envió a ${member.email} un enlace para restablecer la contraseña`
          : `Se generó con npm run admin:reset-password un enlace para ${member.email}`,
      ip: requestedBy.ip ?? null,
    });
    return { token, name, expiresAt: new Date(inserted.rows[0]?.expires_at ?? Date.now()).toISOString() };
  });
}

/**
 * Whether a reset by e-mail would exceed its limits: the member's links of the
 * last hour, and the links requested from this address (the activity log
 * records each with its IP). The address is locked for the count.
 */
async function overLimit(tx: Queryable, memberId: string, ip: string | null): Promise<boolean> {
  const member = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM password_resets WHERE user_id = $1 AND created_at > now() - interval '1 hour'`,
    [memberId],
  );
  if ((member.rows[0]?.count ?? 0) >= RESET_EMAILS_PER_MEMBER_PER_HOUR) return true;
  if (!ip) return false;
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`recovery-ip:${ip}`]);
  const address = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM activity_log
     WHERE kind = 'password_reset_requested' AND ip = $1 AND at > now() - interval '1 hour'`,
    [ip],
  );
  return (address.rows[0]?.count ?? 0) >= RESET_EMAILS_PER_ADDRESS_PER_HOUR;
}

/** The member a reset link belongs to while it is valid, or null. */
export async function findReset(db: Queryable, token: string): Promise<{ email: string } | null> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT u.email FROM password_resets r JOIN users u ON u.id = r.user_id
     WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now() AND u.deactivated_at IS NULL`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

/**
 * Sets the new password through a valid link, once, ends every session of
 * the member and removes their passkeys: a reset starts the account over
 * (a passkey added from a session someone borrowed would otherwise let them
 * back in after it); the member adds theirs again once signed in. False when
 * the link is no longer valid.
 */
export async function redeemReset(
  db: Database,
  token: string,
  passwordHash: string,
  ip: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; user_id: string; name: string; email: string }>(
      `SELECT r.id, r.user_id, coalesce(u.name, u.email) AS name, u.email
       FROM password_resets r JOIN users u ON u.id = r.user_id
       WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now() AND u.deactivated_at IS NULL
       FOR UPDATE OF r`,
      [hashToken(token)],
    );
    const reset = rows[0];
    if (!reset) return false;
    await tx.query('UPDATE password_resets SET used_at = now() WHERE id = $1', [reset.id]);
    await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [reset.user_id, passwordHash]);
    await revokeSessionsOf(tx, reset.user_id);
    const passkeys = await tx.query('DELETE FROM passkeys WHERE user_id = $1', [reset.user_id]);
    const removed = passkeys.rowCount ?? 0;
    // The link proved the mailbox: earlier failed sign-ins of this e-mail no longer hold it locked.
    await tx.query(`DELETE FROM login_failures WHERE email = $1 AND method = 'password'`, [reset.email]);
    await recordActivity(tx, {
      actor: { id: reset.user_id, name: reset.name },
      kind: 'password_reset',
      summary: `${reset.name} restableció su contraseña (se cerraron todas sus sesiones${
        removed === 0
          ? ''
          : removed === 1
            ? ' y se quitó su llave de acceso'
            : ` y se quitaron sus ${removed} llaves de acceso`
      })`,
      ip,
    });
    return true;
  });
}
