import {
  INVITATION_HOURS,
  INVITATIONS_PER_ADDRESS,
  INVITATIONS_PER_ADDRESS_PER_DAY,
  INVITATIONS_PER_ADMIN,
  INVITATIONS_PER_ADMIN_PER_HOUR,
  type Member,
  type OpenInvitation,
  ROLE_LABELS,
  type Role,
  type TeamSettingsChange,
  type TeamView,
} from '../../lib/admin/team.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import { revokeSessionsOf, type SessionUser } from '../auth/users.ts';
import type { Database, Queryable } from '../db/database.ts';
import { hashToken, newToken } from './tokens.ts';

/** Whether the member `alias` (a row of users) is an active administrator. */
function activeAdmin(alias: string): string {
  return `${alias}.deactivated_at IS NULL
    AND EXISTS (SELECT 1 FROM user_roles ar WHERE ar.user_id = ${alias}.id AND ar.role = 'admin')`;
}

/**
 * An invitation `i` that still works: not used, revoked or expired, and sent
 * by someone who is still an active administrator (a sender deactivated,
 * demoted or deleted by any path leaves no live link behind).
 */
const USABLE_INVITATION = `i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
  AND EXISTS (SELECT 1 FROM users s WHERE s.id = i.invited_by AND ${activeAdmin('s')})`;

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
       WHERE ${USABLE_INVITATION}
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

/** Each team setting: its column and what the activity log says when it is turned on or off. */
const TEAM_SETTINGS = {
  roundRobin: {
    column: 'round_robin',
    on: 'Activó la asignación por turnos de los prospectos nuevos',
    off: 'Desactivó la asignación por turnos de los prospectos nuevos',
  },
  adminPasskeyRequired: {
    column: 'admin_passkey_required',
    on: 'Exigió llave de acceso a los administradores',
    off: 'Dejó de exigir llave de acceso a los administradores',
  },
} as const satisfies Record<keyof TeamSettingsChange, { column: string; on: string; off: string }>;

/** Changes the team's settings (round-robin assignment, passkeys required for administrators), each on the record. */
export async function setTeamSettings(db: Database, change: TeamSettingsChange, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    for (const name of ['roundRobin', 'adminPasskeyRequired'] as const) {
      const value = change[name];
      if (value === undefined) continue;
      const setting = TEAM_SETTINGS[name];
      await tx.query(`UPDATE team_settings SET ${setting.column} = $1`, [value]);
      await recordActivity(tx, {
        actor,
        kind: 'settings_changed',
        summary: value ? setting.on : setting.off,
        details: { [name]: value },
      });
    }
  });
}

export class TeamConflict extends Error {
  override name = 'TeamConflict';
}

/** The acting administrator was deactivated or demoted while the request was on its way (403). */
export class NoLongerAdmin extends Error {
  override name = 'NoLongerAdmin';
}

/** Too many invitations from one administrator or to one address (429, retry after `retryAfter` seconds). */
export class InvitationLimit extends Error {
  override name = 'InvitationLimit';
  readonly retryAfter: number;
  constructor(message: string, retryAfter: number) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** How many invitations match `column = value` in the last `hours`, and the seconds until the oldest leaves the window. */
async function invitationsWithin(
  tx: Queryable,
  column: 'invited_by' | 'email',
  value: string,
  hours: number,
): Promise<{ count: number; retryAfter: number }> {
  const { rows } = await tx.query<{ count: number; retry_after: number | null }>(
    `SELECT count(*)::int AS count,
            ceil(extract(epoch FROM min(created_at) + make_interval(hours => $2) - now()))::int AS retry_after
     FROM invitations WHERE ${column} = $1 AND created_at > now() - make_interval(hours => $2)`,
    [value, hours],
  );
  return { count: rows[0]?.count ?? 0, retryAfter: Math.max(1, rows[0]?.retry_after ?? 1) };
}

/**
 * A one-time invitation for `email` with `role`, valid 72 hours; earlier open
 * invitations for the same address are revoked. Returns the token (shown
 * once, never stored: only its hash is).
 *
 * Each invitation sends an e-mail, so an administrator creates at most 20 an
 * hour and an address receives at most 5 a day (InvitationLimit), counted in
 * the invitations themselves under an advisory lock per administrator and per
 * address (taken in that order): a burst at once cannot slip past the count.
 * The actor must still be an active administrator (NoLongerAdmin).
 */
export async function createInvitation(
  db: Database,
  invitation: { email: string; role: Role },
  actor: Actor,
): Promise<{ id: string; token: string; expiresAt: string }> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`invitations-by:${actor.id}`]);
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`invitations-to:${invitation.email}`]);
    // Locked first (a deactivation or demotion in progress finishes), then read afresh.
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR SHARE', [actor.id]);
    const acting = await tx.query(`SELECT 1 FROM users u WHERE u.id = $1 AND ${activeAdmin('u')}`, [actor.id]);
    if (acting.rows.length === 0) throw new NoLongerAdmin();
    const member = await tx.query('SELECT 1 FROM users WHERE email = $1', [invitation.email]);
    if (member.rows.length > 0) throw new TeamConflict('Ya hay un miembro del equipo con ese correo.');
    const sent = await invitationsWithin(tx, 'invited_by', actor.id, 1);
    if (sent.count >= INVITATIONS_PER_ADMIN_PER_HOUR) throw new InvitationLimit(INVITATIONS_PER_ADMIN, sent.retryAfter);
    const received = await invitationsWithin(tx, 'email', invitation.email, 24);
    if (received.count >= INVITATIONS_PER_ADDRESS_PER_DAY) {
      throw new InvitationLimit(INVITATIONS_PER_ADDRESS, received.retryAfter);
    }
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

/**
 * The open invitation a token belongs to, or null (unknown, used, expired or
 * revoked, or its sender no longer an active administrator).
 */
export async function findInvitation(db: Queryable, token: string): Promise<{ email: string; role: Role } | null> {
  const { rows } = await db.query<{ email: string; role: Role }>(
    `SELECT i.email, i.role FROM invitations i WHERE i.token_hash = $1 AND ${USABLE_INVITATION}`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

/**
 * Turns an open invitation into a member with the chosen name and password,
 * once: the invitation row is locked and marked accepted in the same
 * transaction. Null when the link is no longer valid (its sender too must
 * still be an active administrator; a deactivation or demotion in progress
 * revokes the row, which this lock waits for).
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
      `SELECT i.id, i.email, i.role FROM invitations i
       WHERE i.token_hash = $1 AND ${USABLE_INVITATION}
       FOR UPDATE OF i`,
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

/** Revokes the open invitations `sender` sent; their addresses, for the record. */
async function revokeInvitationsSentBy(tx: Queryable, sender: string): Promise<string[]> {
  const { rows } = await tx.query<{ email: string }>(
    `UPDATE invitations SET revoked_at = now()
     WHERE invited_by = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
     RETURNING email`,
    [sender],
  );
  return rows.map((row) => row.email).sort();
}

/** What the log adds to a deactivation or demotion that revoked invitations. */
function revocationNote(revoked: string[]): { suffix: string; details: { revokedInvitations?: string[] } } {
  if (revoked.length === 0) return { suffix: '', details: {} };
  const what = revoked.length === 1 ? 'su 1 invitación pendiente' : `sus ${revoked.length} invitaciones pendientes`;
  return { suffix: ` y revocó ${what}`, details: { revokedInvitations: revoked } };
}

/**
 * Changes a member's role or active state. The last active administrator can
 * be neither demoted nor deactivated, and the actor must still be an active
 * administrator when the change is decided ('not-admin' otherwise): the
 * administrators are locked, then read again, so two changes at once (two
 * administrators deactivating or demoting each other) cannot both pass. A
 * deactivated member's sessions end at once; their name stays in every
 * history. A member deactivated or demoted loses the invitations they sent,
 * on the same entry of the log.
 */
export async function changeMember(
  db: Database,
  id: string,
  change: { role?: Role; active?: boolean },
  actor: Actor,
): Promise<'changed' | 'missing' | 'last-admin' | 'not-admin'> {
  return db.transaction(async (tx) => {
    // Locked in id order, so two changes queue here and cannot deadlock...
    await tx.query(
      `SELECT u.id FROM users u JOIN user_roles r ON r.user_id = u.id
       WHERE r.role = 'admin' AND u.deactivated_at IS NULL
       ORDER BY u.id FOR UPDATE OF u`,
    );
    // ...then read again: a new statement sees what the change we waited for committed (a
    // role lives in user_roles, which the locking read above does not re-check).
    const admins = await tx.query<{ id: string }>(`SELECT u.id FROM users u WHERE ${activeAdmin('u')}`);
    if (!admins.rows.some((admin) => admin.id === actor.id)) return 'not-admin';
    const { rows } = await tx.query<{ email: string; name: string | null; role: Role; active: boolean }>(
      `SELECT u.email, u.name, r.role, u.deactivated_at IS NULL AS active
       FROM users u JOIN user_roles r ON r.user_id = u.id WHERE u.id = $1 FOR UPDATE OF u`,
      [id],
    );
    const member = rows[0];
    if (!member) return 'missing';
    const loses = member.role === 'admin' && member.active && (change.role === 'asesor' || change.active === false);
    if (loses && admins.rows.length <= 1) return 'last-admin';
    const demoted = member.role === 'admin' && change.role === 'asesor';
    const deactivated = member.active && change.active === false;
    // Noted on the demotion's entry, or else on the deactivation's.
    const revoked = revocationNote(demoted || deactivated ? await revokeInvitationsSentBy(tx, id) : []);
    const who = member.name ?? member.email;
    if (change.role && change.role !== member.role) {
      await tx.query('UPDATE user_roles SET role = $2 WHERE user_id = $1', [id, change.role]);
      const note = demoted ? revoked : revocationNote([]);
      await recordActivity(tx, {
        actor,
        kind: 'role_changed',
        summary: `Cambió el rol de ${who} de ${ROLE_LABELS[member.role].toLowerCase()} a ${ROLE_LABELS[change.role].toLowerCase()}${note.suffix}`,
        details: { member: id, from: member.role, to: change.role, ...note.details },
      });
    }
    if (change.active !== undefined && change.active !== member.active) {
      await tx.query('UPDATE users SET deactivated_at = $2 WHERE id = $1', [id, change.active ? null : new Date()]);
      if (!change.active) await revokeSessionsOf(tx, id);
      const note = deactivated && !demoted ? revoked : revocationNote([]);
      await recordActivity(tx, {
        actor,
        kind: change.active ? 'member_reactivated' : 'member_deactivated',
        summary: `${change.active ? 'Reactivó' : 'Desactivó'} la cuenta de ${who}${note.suffix}`,
        details: { member: id, ...note.details },
      });
    }
    return 'changed';
  });
}
