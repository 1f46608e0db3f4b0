import {
  INVITATION_HOURS,
  type Member,
  type OpenInvitation,
  ROLE_LABELS,
  type Role,
  type TeamSettingsChange,
  type TeamView,
} from '../../lib/admin/team.ts';
import { revokeSessionsOf, type SessionUser } from '../auth/users.ts';
import type { Database, Queryable } from '../db/database.ts';
import { type Actor, recordActivity } from './activity.ts';
import { hashToken, newToken } from './tokens.ts';

/** The team page: members (active or not) and the invitations still open. */
export async function teamView(db: Queryable, mailer: boolean): Promise<TeamView> {
  const [members, invitations, settings] = await Promise.all([
    db.query<{
      id: string;
      email: string;
      name: string | null;
      role: Role;
      deactivated_at: Date | null;
      last_sign_in_at: Date | null;
      created_at: Date;
    }>(
      `SELECT u.id, u.email, u.name, r.role, u.deactivated_at, u.last_sign_in_at, u.created_at
       FROM users u JOIN user_roles r ON r.user_id = u.id
       ORDER BY u.deactivated_at IS NOT NULL, r.role, coalesce(u.name, u.email)`,
    ),
    db.query<{
      id: string;
      email: string;
      role: Role;
      created_at: Date;
      expires_at: Date;
      invited_by: string | null;
    }>(
      `SELECT i.id, i.email, i.role, i.created_at, i.expires_at, coalesce(u.name, u.email) AS invited_by
       FROM invitations i LEFT JOIN users u ON u.id = i.invited_by
       WHERE i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
       ORDER BY i.created_at DESC`,
    ),
    db.query<{ round_robin: boolean; admin_passkey_required: boolean }>(
      'SELECT round_robin, admin_passkey_required FROM team_settings',
    ),
  ]);
  return {
    members: members.rows.map(
      (row): Member => ({
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        active: row.deactivated_at === null,
        lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
        createdAt: new Date(row.created_at).toISOString(),
      }),
    ),
    invitations: invitations.rows.map(
      (row): OpenInvitation => ({
        id: row.id,
        email: row.email,
        role: row.role,
        createdAt: new Date(row.created_at).toISOString(),
        expiresAt: new Date(row.expires_at).toISOString(),
        invitedBy: row.invited_by,
      }),
    ),
    mailer,
    roundRobin: settings.rows[0]?.round_robin === true,
    adminPasskeyRequired: settings.rows[0]?.admin_passkey_required === true,
  };
}

/** Changes the team's settings (round-robin assignment, passkeys required for administrators), each on the record. */
export async function setTeamSettings(db: Database, change: TeamSettingsChange, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    if (change.roundRobin !== undefined) {
      await tx.query('UPDATE team_settings SET round_robin = $1', [change.roundRobin]);
      await recordActivity(tx, {
        actor,
        kind: 'settings_changed',
        summary: change.roundRobin
          ? 'Activó la asignación por turnos de los prospectos nuevos'
          : 'Desactivó la asignación por turnos de los prospectos nuevos',
        details: { roundRobin: change.roundRobin },
      });
    }
    if (change.adminPasskeyRequired !== undefined) {
      await tx.query('UPDATE team_settings SET admin_passkey_required = $1', [change.adminPasskeyRequired]);
      await recordActivity(tx, {
        actor,
        kind: 'settings_changed',
        summary: change.adminPasskeyRequired
          ? 'Exigió llave de acceso a los administradores'
          : 'Dejó de exigir llave de acceso a los administradores',
        details: { adminPasskeyRequired: change.adminPasskeyRequired },
      });
    }
  });
}

export class TeamConflict extends Error {
  override name = 'TeamConflict';
}

/**
 * A one-time invitation for `email` with `role`, valid 72 hours; earlier open
 * invitations for the same address are revoked. Returns the token (shown
 * once, never stored: only its hash is).
 */
export async function createInvitation(
  db: Database,
  invitation: { email: string; role: Role },
  actor: Actor,
): Promise<{ id: string; token: string; expiresAt: string }> {
  return db.transaction(async (tx) => {
    const member = await tx.query('SELECT 1 FROM users WHERE email = $1', [invitation.email]);
    if (member.rows.length > 0) throw new TeamConflict('Ya hay un miembro del equipo con ese correo.');
    await tx.query(
      `UPDATE invitations SET revoked_at = now()
       WHERE email = $1 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [invitation.email],
    );
    const { token, hash } = newToken();
    const { rows } = await tx.query<{ id: string; expires_at: Date }>(
      `INSERT INTO invitations (email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))
       RETURNING id, expires_at`,
      [invitation.email, invitation.role, hash, actor.id, INVITATION_HOURS],
    );
    const row = rows[0] as { id: string; expires_at: Date };
    await recordActivity(tx, {
      actor,
      kind: 'invitation_created',
      summary: `Invitó a ${invitation.email} como ${ROLE_LABELS[invitation.role].toLowerCase()}`,
      details: { email: invitation.email, role: invitation.role },
    });
    return { id: row.id, token, expiresAt: new Date(row.expires_at).toISOString() };
  });
}

export async function revokeInvitation(db: Database, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ email: string }>(
      `UPDATE invitations SET revoked_at = now()
       WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING email`,
      [id],
    );
    const revoked = rows[0];
    if (!revoked) return false;
    await recordActivity(tx, {
      actor,
      kind: 'invitation_revoked',
      summary: `Revocó la invitación de ${revoked.email}`,
      details: { email: revoked.email },
    });
    return true;
  });
}

/** The open invitation a token belongs to, or null (unknown, used, expired or revoked). */
export async function findInvitation(db: Queryable, token: string): Promise<{ email: string; role: Role } | null> {
  const { rows } = await db.query<{ email: string; role: Role }>(
    `SELECT email, role FROM invitations
     WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

/**
 * Turns an open invitation into a member with the chosen name and password,
 * once: the invitation row is locked and marked accepted in the same
 * transaction. Null when the link is no longer valid.
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  name: string,
  passwordHash: string,
  ip: string | null,
): Promise<SessionUser | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; email: string; role: Role }>(
      `SELECT id, email, role FROM invitations
       WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       FOR UPDATE`,
      [hashToken(token)],
    );
    const invitation = rows[0];
    if (!invitation) return null;
    const created = await tx.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, name) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [invitation.email, passwordHash, name],
    );
    const user = created.rows[0];
    if (!user) throw new TeamConflict('Ya hay un miembro del equipo con ese correo.');
    await tx.query('INSERT INTO user_roles (user_id, role) VALUES ($1, $2)', [user.id, invitation.role]);
    await tx.query('UPDATE invitations SET accepted_at = now() WHERE id = $1', [invitation.id]);
    await recordActivity(tx, {
      actor: { id: user.id, name },
      kind: 'invitation_accepted',
      summary: `${name} aceptó la invitación como ${ROLE_LABELS[invitation.role].toLowerCase()}`,
      details: { email: invitation.email, role: invitation.role },
      ip,
    });
    return { id: user.id, email: invitation.email, name, role: invitation.role, admin: invitation.role === 'admin' };
  });
}

/**
 * Changes a member's role or active state. The last active administrator can
 * be neither demoted nor deactivated (the administrators are locked while
 * this is decided, so two changes at once cannot both pass). A deactivated
 * member's sessions end at once; their name stays in every history.
 */
export async function changeMember(
  db: Database,
  id: string,
  change: { role?: Role; active?: boolean },
  actor: Actor,
): Promise<'changed' | 'missing' | 'last-admin'> {
  return db.transaction(async (tx) => {
    const admins = await tx.query<{ id: string }>(
      `SELECT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
       WHERE r.role = 'admin' AND u.deactivated_at IS NULL
       ORDER BY u.id FOR UPDATE OF u`,
    );
    const { rows } = await tx.query<{ email: string; name: string | null; role: Role; active: boolean }>(
      `SELECT u.email, u.name, r.role, u.deactivated_at IS NULL AS active
       FROM users u JOIN user_roles r ON r.user_id = u.id WHERE u.id = $1 FOR UPDATE OF u`,
      [id],
    );
    const member = rows[0];
    if (!member) return 'missing';
    const loses = member.role === 'admin' && member.active && (change.role === 'asesor' || change.active === false);
    if (loses && admins.rows.length <= 1) return 'last-admin';
    const who = member.name ?? member.email;
    if (change.role && change.role !== member.role) {
      await tx.query('UPDATE user_roles SET role = $2 WHERE user_id = $1', [id, change.role]);
      await recordActivity(tx, {
        actor,
        kind: 'role_changed',
        summary: `Cambió el rol de ${who} de ${ROLE_LABELS[member.role].toLowerCase()} a ${ROLE_LABELS[change.role].toLowerCase()}`,
        details: { member: id, from: member.role, to: change.role },
      });
    }
    if (change.active !== undefined && change.active !== member.active) {
      await tx.query('UPDATE users SET deactivated_at = $2 WHERE id = $1', [id, change.active ? null : new Date()]);
      if (!change.active) await revokeSessionsOf(tx, id);
      await recordActivity(tx, {
        actor,
        kind: change.active ? 'member_reactivated' : 'member_deactivated',
        summary: `${change.active ? 'Reactivó' : 'Desactivó'} la cuenta de ${who}`,
        details: { member: id },
      });
    }
    return 'changed';
  });
}
