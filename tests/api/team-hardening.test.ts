import { beforeAll, describe, expect, it } from 'vitest';
import {
  INVITATION_INVALID,
  INVITATIONS_PER_ADDRESS,
  INVITATIONS_PER_ADMIN,
  LAST_ADMIN,
} from '../../src/lib/admin/team.ts';
import { cookieOf, memberRequest, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #23, the team's doors: a sender's invitations die with their rights
 * (item 5), the last administrator survives two changes at once (item 12),
 * and invitations are limited per administrator and per address (item 6).
 */
let server: RunningServer;
let admin: string;
let adminId: string;

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url, 'admin@ceiba.mx', 'contraseña-segura');
  const [row] = await sql<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@ceiba.mx'`);
  adminId = row?.id as string;
});

const call = memberRequest(() => server.url);
const post = (cookie: string | null, path: string, body: unknown) =>
  call(cookie, path, { method: 'POST', body: JSON.stringify(body) });
const patchMember = (cookie: string, id: string, change: object) =>
  call(cookie, `/api/admin/team/members/${id}`, { method: 'PATCH', body: JSON.stringify(change) });
const errorOf = async (answer: Response) => ((await answer.json()) as { error: string }).error;

let count = 0;
async function invite(from: string, role: 'admin' | 'asesor', email = `persona${++count}@ceiba.mx`) {
  const answer = await post(from, '/api/admin/team/invitations', { email, role });
  expect(answer.status, await answer.clone().text()).toBe(201);
  const body = (await answer.json()) as { link: string; id: string };
  return { id: body.id, email, token: body.link.split('#')[1] as string };
}

async function join(role: 'admin' | 'asesor', name: string) {
  const invitation = await invite(admin, role);
  const answer = await post(null, '/api/auth/invitation', {
    token: invitation.token,
    name,
    password: 'clave-segura-1',
  });
  expect(answer.status).toBe(201);
  return { cookie: cookieOf(answer), id: ((await answer.json()) as { user: { id: string } }).user.id };
}

/** The invitee's two doors: the link's check and its acceptance. */
async function expectDead(token: string) {
  const check = await post(null, '/api/auth/invitation/check', { token });
  expect(check.status).toBe(410);
  expect(await errorOf(check)).toBe(INVITATION_INVALID);
  const accept = await post(null, '/api/auth/invitation', { token, name: 'Cómplice', password: 'clave-segura-2' });
  expect(accept.status).toBe(410);
  expect(await errorOf(accept)).toBe(INVITATION_INVALID);
}

// The invitation endpoints allow 20 requests a minute per IP (config.rateLimit): this file makes 17.
const checkStatus = async (token: string) => (await post(null, '/api/auth/invitation/check', { token })).status;

describe('a sender’s invitations die with their rights (item 5)', () => {
  it('deactivating an administrator revokes the invitations they sent, on the same entry of the log', async () => {
    const rogue = await join('admin', 'Rogelio Poot');
    const accomplice = await invite(rogue.cookie, 'admin');
    const second = await invite(rogue.cookie, 'asesor');
    expect(await checkStatus(accomplice.token)).toBe(200);

    expect((await patchMember(admin, rogue.id, { active: false })).status).toBe(200);
    await expectDead(accomplice.token);
    expect(await sql('SELECT 1 FROM users WHERE email = $1', [accomplice.email])).toEqual([]);

    const revoked = await sql<{ id: string }>(
      'SELECT id FROM invitations WHERE invited_by = $1 AND revoked_at IS NOT NULL ORDER BY id',
      [rogue.id],
    );
    expect(revoked.map((row) => row.id)).toEqual([accomplice.id, second.id].sort());
    const [entry] = await sql<{ summary: string; details: { revokedInvitations: string[] } }>(
      `SELECT summary, details FROM activity_log WHERE kind = 'member_deactivated' ORDER BY at DESC LIMIT 1`,
    );
    expect(entry?.summary).toBe('Desactivó la cuenta de Rogelio Poot y revocó sus 2 invitaciones pendientes');
    expect(entry?.details.revokedInvitations.sort()).toEqual([accomplice.email, second.email].sort());
    const team = (await (await call(admin, '/api/admin/team')).json()) as { invitations: { id: string }[] };
    expect(team.invitations.map((invitation) => invitation.id)).not.toContain(accomplice.id);
  });

  it('demoting an administrator revokes them too', async () => {
    const rogue = await join('admin', 'Ramona Cen');
    const accomplice = await invite(rogue.cookie, 'admin');
    expect((await patchMember(admin, rogue.id, { role: 'asesor' })).status).toBe(200);
    await expectDead(accomplice.token);
    const [entry] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'role_changed' ORDER BY at DESC LIMIT 1`,
    );
    expect(entry?.summary).toBe(
      'Cambió el rol de Ramona Cen de administrador a asesor y revocó su 1 invitación pendiente',
    );
  });

  it('an invitation works only while its sender is an active administrator, whatever changed them', async () => {
    const sender = await join('admin', 'Saúl Tun');
    const invitation = await invite(sender.cookie, 'asesor');
    // Changed outside the panel (a script, a manual fix): no revocation ran, the link dies anyway.
    await sql(`UPDATE user_roles SET role = 'asesor' WHERE user_id = $1`, [sender.id]);
    expect(await checkStatus(invitation.token)).toBe(410);
    await sql(`UPDATE user_roles SET role = 'admin' WHERE user_id = $1`, [sender.id]);
    expect(await checkStatus(invitation.token)).toBe(200);
    await sql('UPDATE users SET deactivated_at = now() WHERE id = $1', [sender.id]);
    expect(await checkStatus(invitation.token)).toBe(410);
    await sql('DELETE FROM users WHERE id = $1', [sender.id]);
    expect(await sql('SELECT invited_by FROM invitations WHERE id = $1', [invitation.id])).toEqual([
      { invited_by: null },
    ]);
    await expectDead(invitation.token);
  });
});

describe('the last administrator under concurrency (item 12)', () => {
  it('two administrators changing each other at the same moment never leave the team without one', async () => {
    const other = await join('admin', 'Beatriz Uc');
    // Exactly two active administrators: the first and this one.
    await sql(
      `UPDATE users SET deactivated_at = now()
       WHERE id IN (SELECT user_id FROM user_roles WHERE role = 'admin') AND id NOT IN ($1, $2)`,
      [adminId, other.id],
    );
    const sessionOf = (cookie: string) =>
      (JSON.parse(Buffer.from(cookie.split('=')[1]?.split('.')[1] ?? '', 'base64url').toString()) as { jti: string })
        .jti;
    const changes: [object, object][] = [
      [{ active: false }, { active: false }],
      [{ role: 'asesor' }, { role: 'asesor' }],
      [{ role: 'asesor' }, { active: false }],
      [{ active: false }, { role: 'asesor' }],
    ];
    // Both back as active administrators, signed in, between rounds (and for the tests after this one).
    const restore = async () => {
      await sql(`UPDATE users SET deactivated_at = NULL WHERE id IN ($1, $2)`, [adminId, other.id]);
      await sql(`UPDATE user_roles SET role = 'admin' WHERE user_id IN ($1, $2)`, [adminId, other.id]);
      await sql(`UPDATE sessions SET revoked_at = NULL WHERE id IN ($1, $2)`, [
        sessionOf(admin),
        sessionOf(other.cookie),
      ]);
    };
    try {
      for (let round = 0; round < 12; round += 1) {
        const [mine, theirs] = changes[round % changes.length] as [object, object];
        const answers = await Promise.all([
          patchMember(admin, other.id, mine),
          patchMember(other.cookie, adminId, theirs),
        ]);
        const statuses = answers.map((answer) => answer.status);
        const [active] = await sql<{ count: number }>(
          `SELECT count(*)::int AS count FROM users u JOIN user_roles r ON r.user_id = u.id
           WHERE r.role = 'admin' AND u.deactivated_at IS NULL`,
        );
        expect(active?.count, `round ${round}: ${statuses}`).toBe(1);
        expect(
          statuses.filter((status) => status === 200),
          `round ${round}: ${statuses}`,
        ).toHaveLength(1);
        const loser = answers.find((answer) => answer.status !== 200) as Response;
        // 403: no longer an administrator when the change was decided; 409: the last one; 401: the
        // winner had already ended the loser's session when the loser's request arrived.
        expect([401, 403, 409], `round ${round}: ${statuses}`).toContain(loser.status);
        if (loser.status === 409) expect(await errorOf(loser)).toBe(LAST_ADMIN);
        await restore();
      }
    } finally {
      await restore();
    }
  });
});

describe('invitations are limited per administrator and per address (item 6)', () => {
  it('five a day to one address, twenty an hour from one administrator, with a Spanish 429 that writes nothing', async () => {
    await sql(`UPDATE invitations SET created_at = created_at - interval '2 days'`);
    const colleague = await join('admin', 'Julia Chi'); // the first administrator's invitation 1 of 20
    let last = { id: '', token: '' };
    for (let index = 0; index < 5; index += 1) last = await invite(admin, 'asesor', 'repetida@ceiba.mx');
    const before = await sql('SELECT id, revoked_at FROM invitations ORDER BY id');
    const sixth = await post(admin, '/api/admin/team/invitations', { email: 'repetida@ceiba.mx', role: 'asesor' });
    expect(sixth.status).toBe(429);
    expect(await errorOf(sixth)).toBe(INVITATIONS_PER_ADDRESS);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(await sql('SELECT id, revoked_at FROM invitations ORDER BY id')).toEqual(before);
    // The last link sent stays valid.
    expect(await checkStatus(last.token)).toBe(200);

    for (let index = 6; index < 20; index += 1) await invite(admin, 'asesor');
    const extra = await post(admin, '/api/admin/team/invitations', { email: 'otra@ceiba.mx', role: 'asesor' });
    expect(extra.status).toBe(429);
    expect(await errorOf(extra)).toBe(INVITATIONS_PER_ADMIN);
    expect(Number(extra.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(await sql('SELECT 1 FROM invitations WHERE email = $1', ['otra@ceiba.mx'])).toEqual([]);

    // Another administrator has their own allowance; an hour later the first has theirs again.
    await invite(colleague.cookie, 'asesor', 'otra@ceiba.mx');
    await sql(`UPDATE invitations SET created_at = created_at - interval '61 minutes' WHERE invited_by = $1`, [
      adminId,
    ]);
    await invite(admin, 'asesor');
  });

  it('a burst at once is held to the limit too', async () => {
    await sql(`UPDATE invitations SET created_at = created_at - interval '2 days'`);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(admin, '/api/admin/team/invitations', { email: 'rafaga@ceiba.mx', role: 'asesor' }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const rows = await sql<{ open: boolean }>('SELECT revoked_at IS NULL AS open FROM invitations WHERE email = $1', [
      'rafaga@ceiba.mx',
    ]);
    expect(rows).toHaveLength(5);
    expect(rows.filter((row) => row.open)).toHaveLength(1);
  });
});
