import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_INVALID, LAST_ADMIN } from '../../src/lib/admin/team.ts';
import { cookieOf, login, memberRequest, originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';

/** Issue #12: advisers' accounts, invitations, roles enforced on the server, deactivation, password change, activity log. */
let server: RunningServer;
let smtp: SmtpReceiver;
let admin: string;

const ADMIN = { email: 'admin@ceiba.mx', password: 'contraseña-segura' };

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startServer({
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    // Every member's story comes from this one address: more recoveries a minute than auth-recovery's rateLimit.
    PLATFORM_RATE_LIMIT: '0',
  });
  admin = await setupAdmin(server.url, ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await smtp?.close();
});

const call = memberRequest(() => server.url);
const post = (cookie: string | null, path: string, body: unknown) =>
  call(cookie, path, { method: 'POST', body: JSON.stringify(body) });

let invitationCount = 0;
async function invite(role: 'admin' | 'asesor', email = `asesor${++invitationCount}@ceiba.mx`) {
  const answer = await post(admin, '/api/admin/team/invitations', { email, role });
  expect(answer.status).toBe(201);
  const body = (await answer.json()) as { link: string; emailed: boolean; id: string };
  return { ...body, email, token: body.link.split('#')[1] as string };
}

async function join(role: 'admin' | 'asesor', name = 'Lucía Pech', password = 'asesora-segura-1') {
  const invitation = await invite(role);
  const answer = await post(null, '/api/auth/invitation', { token: invitation.token, name, password });
  expect(answer.status).toBe(201);
  return {
    ...invitation,
    cookie: cookieOf(answer),
    password,
    id: ((await answer.json()) as { user: { id: string } }).user.id,
  };
}

describe('invitations', () => {
  it('a one-time link valid 72 hours, stored only as a hash, e-mailed when SMTP is on', async () => {
    const invitation = await invite('asesor', 'nueva@ceiba.mx');
    expect(invitation.link).toMatch(new RegExp(`^${server.url}/auth/invitacion#[A-Za-z0-9_-]{43}$`));
    expect(invitation.emailed).toBe(true);
    // Sent after the answer (a slow mail server must not hold the administrator up, issue #23).
    const mail = await smtp.waitForMail((entry) => (entry.to as { text: string }).text.includes('nueva@ceiba.mx'));
    expect(mail?.subject).toBe('Invitación al panel de prospectos');
    expect(mail?.text).toContain(invitation.link);
    const [row] = await sql<{ token_hash: string; hours: number }>(
      `SELECT token_hash, round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours
       FROM invitations WHERE id = $1`,
      [invitation.id],
    );
    expect(row?.hours).toBe(72);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await sql('SELECT * FROM invitations'))).not.toContain(invitation.token);

    const check = await post(null, '/api/auth/invitation/check', { token: invitation.token });
    expect(await check.json()).toEqual({ email: 'nueva@ceiba.mx', role: 'asesor', roleLabel: 'Asesor' });
  });

  it('reused, expired, revoked or tampered links get the same clear Spanish answer (410)', async () => {
    const used = await join('asesor', 'Mario Canché');
    const again = await post(null, '/api/auth/invitation', {
      token: used.token,
      name: 'Otro',
      password: 'otra-clave-123',
    });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: string }).error).toBe(INVITATION_INVALID);

    const expired = await invite('asesor');
    await sql(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.id]);
    const revoked = await invite('asesor');
    expect((await call(admin, `/api/admin/team/invitations/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
    const tampered = `${revoked.token.slice(0, -1)}${revoked.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [expired.token, revoked.token, tampered, 'corto', '']) {
      const check = await post(null, '/api/auth/invitation/check', { token });
      expect(check.status, token).toBe(410);
      const accept = await post(null, '/api/auth/invitation', { token, name: 'Alguien', password: 'clave-segura-1' });
      expect(accept.status, token).toBe(410);
      expect(((await accept.json()) as { error: string }).error).toBe(INVITATION_INVALID);
    }
  });

  it('an invitation cannot be for someone already on the team, and names and passwords are checked', async () => {
    const taken = await post(admin, '/api/admin/team/invitations', { email: ADMIN.email, role: 'asesor' });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: string }).error).toBe('Ya hay un miembro del equipo con ese correo.');
    const bad = await post(admin, '/api/admin/team/invitations', { email: 'no-es-correo', role: 'jefe' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields).toEqual({
      email: 'Escribe un correo válido, por ejemplo nombre@correo.com.',
      role: 'Elige un rol: administrador o asesor.',
    });
    const invitation = await invite('asesor');
    const weak = await post(null, '/api/auth/invitation', { token: invitation.token, name: ' ', password: 'corta' });
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { fields: Record<string, string> }).fields).toEqual({
      name: 'Escribe tu nombre.',
      password: 'Usa al menos 8 caracteres.',
    });
  });
});

describe('roles enforced on the server', () => {
  it('an adviser works contacts (list, detail, state, notes) but cannot delete, export, or manage the team', async () => {
    const adviser = await join('asesor', 'Ana Chan');
    const lead = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: '9990001122' }));
    const { id: leadId } = (await lead.json()) as { id: string };
    const [{ contact_id: contactId } = { contact_id: '' }] = await sql<{ contact_id: string }>(
      'SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1',
      [leadId],
    );

    expect((await call(adviser.cookie, '/api/admin/contacts')).status).toBe(200);
    expect((await call(adviser.cookie, '/api/admin/metrics')).status).toBe(200);
    const detail = (await (await call(adviser.cookie, `/api/admin/contacts/${contactId}`)).json()) as {
      version: number;
    };
    const change = await call(adviser.cookie, `/api/admin/contacts/${contactId}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'contactado', version: detail.version }),
    });
    expect(change.status).toBe(200);
    const note = await post(adviser.cookie, `/api/admin/contacts/${contactId}/notes`, {
      body: 'Llamé, quiere visita.',
    });
    expect(note.status).toBe(201);
    // The history keeps the adviser's name.
    const [event] = await sql<{ actor_name: string }>(
      `SELECT actor_name FROM contact_events WHERE contact_id = $1 AND kind = 'state' ORDER BY created_at DESC LIMIT 1`,
      [contactId],
    );
    expect(event?.actor_name).toBe('Ana Chan');

    const forbidden: [string, RequestInit][] = [
      [`/api/admin/quick-quotes/${leadId}`, { method: 'DELETE' }],
      ['/api/admin/quick-quotes/export.csv', {}],
      ['/api/admin/contacts/export.csv', {}],
      ['/api/admin/quick-quotes', {}],
      ['/api/admin/team', {}],
      ['/api/admin/activity', {}],
      ['/api/admin/notifications', {}],
      ['/api/admin/team/invitations', { method: 'POST', body: JSON.stringify({ email: 'x@ceiba.mx', role: 'admin' }) }],
      [`/api/admin/team/members/${adviser.id}`, { method: 'PATCH', body: JSON.stringify({ role: 'admin' }) }],
    ];
    for (const [path, init] of forbidden) {
      const answer = await call(adviser.cookie, path, init);
      expect(answer.status, `${init.method ?? 'GET'} ${path}`).toBe(403);
      expect(((await answer.json()) as { error: string }).error).toBe('Solo un administrador puede hacer esto.');
    }
    const session = (await (await call(adviser.cookie, '/api/auth/session')).json()) as object;
    expect(session).toEqual({
      user: { id: adviser.id, email: adviser.email, name: 'Ana Chan', role: 'asesor' },
      admin: false,
      passkeyPending: false,
    });
  });

  it('deactivation ends the member’s sessions at once; the last active administrator stays', async () => {
    const adviser = await join('asesor', 'Pedro Uc');
    const other = cookieOf(await login(server.url, adviser.email, adviser.password));
    expect((await call(other, '/api/admin/contacts')).status).toBe(200);
    const off = await call(admin, `/api/admin/team/members/${adviser.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ active: false }),
    });
    expect(off.status).toBe(200);
    for (const cookie of [adviser.cookie, other]) expect((await call(cookie, '/api/admin/contacts')).status).toBe(401);
    const again = await login(server.url, adviser.email, adviser.password);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { error: string }).error).toBe(
      'Tu cuenta está desactivada. Pide a un administrador que la reactive.',
    );

    const [{ id: adminId } = { id: '' }] = await sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      ADMIN.email,
    ]);
    for (const change of [{ role: 'asesor' }, { active: false }]) {
      const refused = await call(admin, `/api/admin/team/members/${adminId}`, {
        method: 'PATCH',
        body: JSON.stringify(change),
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: string }).error).toBe(LAST_ADMIN);
    }
    // With a second administrator, the first can be made an adviser.
    const second = await join('admin', 'Rosa Ek');
    const demote = await call(second.cookie, `/api/admin/team/members/${adminId}`, {
      method: 'PATCH',
      body: JSON.stringify({ role: 'asesor' }),
    });
    expect(demote.status).toBe(200);
    expect((await call(admin, '/api/admin/team')).status).toBe(403);
    await call(second.cookie, `/api/admin/team/members/${adminId}`, {
      method: 'PATCH',
      body: JSON.stringify({ role: 'admin' }),
    });
    expect((await call(admin, '/api/admin/team')).status).toBe(200);
  });

  it('changing one’s password needs the current one and ends one’s other sessions', async () => {
    const adviser = await join('asesor', 'Carla Dzul', 'clave-inicial-1');
    const phone = cookieOf(await login(server.url, adviser.email, 'clave-inicial-1'));
    const wrong = await post(adviser.cookie, '/api/auth/password', { current: 'no-es', password: 'clave-nueva-22' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('La contraseña actual no es correcta.');
    const changed = await post(adviser.cookie, '/api/auth/password', {
      current: 'clave-inicial-1',
      password: 'clave-nueva-22',
    });
    expect(changed.status).toBe(204);
    expect((await call(adviser.cookie, '/api/admin/contacts')).status).toBe(200);
    expect((await call(phone, '/api/admin/contacts')).status).toBe(401);
    expect((await login(server.url, adviser.email, 'clave-inicial-1')).status).toBe(401);
    expect((await login(server.url, adviser.email, 'clave-nueva-22')).status).toBe(200);
  });
});

describe('the activity log', () => {
  it('records sign-ins (with IP), failures, invitations, role changes, deactivations, passwords, exports, deletions and state changes', async () => {
    await login(server.url, ADMIN.email, 'equivocada');
    await (await call(admin, '/api/admin/contacts/export.csv?state=nuevo')).text();
    const lead = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: '9990003344' }));
    const { id } = (await lead.json()) as { id: string };
    expect((await call(admin, `/api/admin/quick-quotes/${id}`, { method: 'DELETE' })).status).toBe(204);
    const page = (await (await call(admin, '/api/admin/activity')).json()) as {
      items: { kind: string; actorName: string | null; summary: string; ip: string | null }[];
    };
    const kinds = new Set(page.items.map((item) => item.kind));
    for (const kind of [
      'setup',
      'sign_in',
      'sign_in_failed',
      'invitation_created',
      'invitation_revoked',
      'invitation_accepted',
      'role_changed',
      'member_deactivated',
      'password_changed',
      'export',
      'deletion',
      'state_change',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const failed = page.items.find((item) => item.kind === 'sign_in_failed');
    expect(failed?.ip).toBe('127.0.0.1');
    const exported = page.items.find((item) => item.kind === 'export');
    expect(exported?.summary).toMatch(/^Exportó prospectos\.csv: \d+ filas?$/);

    const onlyExports = (await (await call(admin, '/api/admin/activity?kind=export')).json()) as {
      items: { kind: string }[];
    };
    expect(new Set(onlyExports.items.map((item) => item.kind))).toEqual(new Set(['export']));
    expect((await call(admin, '/api/admin/activity?kind=borrar')).status).toBe(400);
  });

  it('has no path to change it: no endpoint writes it, and the table refuses updates and deletes', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      expect((await call(admin, '/api/admin/activity', { method })).status, method).toBe(405);
    }
    await expect(sql(`UPDATE activity_log SET summary = 'nada'`)).rejects.toThrow('activity_log is append-only');
    await expect(sql('DELETE FROM activity_log')).rejects.toThrow('activity_log is append-only');
    await expect(sql('TRUNCATE activity_log')).rejects.toThrow('activity_log is append-only');
  });
});

describe('nobody locked out for good', () => {
  it('"¿Olvidaste tu contraseña?" answers the same for anyone, e-mails a 30-minute one-time link, and using it ends every session', async () => {
    const adviser = await join('asesor', 'Elena Kú', 'la-que-olvide-1');
    const before = smtp.messages.length;
    const handled = () => (server.output().match(/"event":"recovery_handled"/g) ?? []).length;
    const handledBefore = handled();
    const known = await post(null, '/api/auth/recovery', { email: adviser.email });
    const unknown = await post(null, '/api/auth/recovery', { email: 'nadie@ceiba.mx' });
    expect(known.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    const mail = await smtp.waitForMail(
      (entry) =>
        entry.subject === 'Restablece tu contraseña del panel' && JSON.stringify(entry.to).includes(adviser.email),
    );
    // Both requests' work after the answer is done (the server logs one line each).
    await until(() => handled() >= handledBefore + 2, 'both recoveries handled after their answers');
    // Nothing for the unknown address. (Only mail to it counts: a lead's notice from an earlier test, sent to
    // the sales inbox after the answer, may arrive meanwhile.)
    expect(smtp.messages.slice(before).filter((entry) => JSON.stringify(entry.to).includes('nadie@ceiba.mx'))).toEqual(
      [],
    );
    const link = /\/auth\/restablecer#([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
    const token = link?.[1] as string;
    expect(token).toHaveLength(43);
    const [row] = await sql<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM password_resets
       ORDER BY created_at DESC LIMIT 1`,
    );
    expect(row?.minutes).toBe(30);

    expect(await (await post(null, '/api/auth/recovery/check', { token })).json()).toEqual({ email: adviser.email });
    // A passkey added from a session someone borrowed: the reset starts the account over, without it.
    const [member] = await sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [adviser.email]);
    await sql(
      `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name)
       VALUES ('cHJlc3RhZGEtZGUtb3Ryby0x', $1, '\\x00', 0, '{}', 'Teléfono prestado')`,
      [member?.id],
    );
    const done = await post(null, '/api/auth/recovery/reset', { token, password: 'la-nueva-clave-2' });
    expect(done.status).toBe(204);
    expect(await countRows('passkeys', 'user_id = $1', [member?.id])).toBe(0);
    const [entry] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'password_reset' ORDER BY at DESC LIMIT 1`,
    );
    expect(entry?.summary).toBe(
      'Elena Kú restableció su contraseña (se cerraron todas sus sesiones y se quitó su llave de acceso)',
    );
    expect((await call(adviser.cookie, '/api/admin/contacts')).status).toBe(401);
    expect((await login(server.url, adviser.email, 'la-que-olvide-1')).status).toBe(401);
    expect((await login(server.url, adviser.email, 'la-nueva-clave-2')).status).toBe(200);
    const reused = await post(null, '/api/auth/recovery/reset', { token, password: 'otra-clave-333' });
    expect(reused.status).toBe(410);
    expect(((await reused.json()) as { error: string }).error).toMatch(/^Este enlace para restablecer/);
  });

  it('npm run admin:reset-password prints a link that works once, for the sole administrator without e-mail', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const run = await promisify(execFile)(process.execPath, ['scripts/admin-reset-password.ts', ADMIN.email], {
      env: { ...process.env, SITE_URL: server.url },
      encoding: 'utf8',
    });
    const token = /\/auth\/restablecer#([A-Za-z0-9_-]{43})/.exec(run.stdout)?.[1] as string;
    expect(run.stdout).toContain(`${server.url}/auth/restablecer#`);
    const reset = await post(null, '/api/auth/recovery/reset', { token, password: 'admin-recuperado-1' });
    expect(reset.status).toBe(204);
    expect((await post(null, '/api/auth/recovery/reset', { token, password: 'otra-vez-123' })).status).toBe(410);
    const fresh = await login(server.url, ADMIN.email, 'admin-recuperado-1');
    expect(fresh.status).toBe(200);
    admin = cookieOf(fresh);
    ADMIN.password = 'admin-recuperado-1';

    const nobody = await promisify(execFile)(process.execPath, ['scripts/admin-reset-password.ts', 'nadie@ceiba.mx'], {
      env: process.env,
      encoding: 'utf8',
    }).catch((error: { code: number; stderr: string }) => error);
    expect((nobody as { code: number }).code).toBe(1);
    expect((nobody as { stderr: string }).stderr).toContain(
      'No hay ningún miembro activo con el correo nadie@ceiba.mx.',
    );
  });

  it('tampered or expired reset links get the same Spanish 410; without SMTP the page says how to recover', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const adviser = await join('asesor', 'Tomás Pool');
    const run = await promisify(execFile)(process.execPath, ['scripts/admin-reset-password.ts', adviser.email], {
      env: process.env,
      encoding: 'utf8',
    });
    const token = /#([A-Za-z0-9_-]{43})/.exec(run.stdout)?.[1] as string;
    await sql(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`);
    for (const bad of [token, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'x']) {
      expect((await post(null, '/api/auth/recovery/check', { token: bad })).status).toBe(410);
      expect((await post(null, '/api/auth/recovery/reset', { token: bad, password: 'clave-nueva-99' })).status).toBe(
        410,
      );
    }
    const plain = await startServer();
    try {
      const answer = await fetch(`${plain.url}/api/auth/recovery`, {
        method: 'POST',
        headers: { Origin: originOf(plain.url), 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: adviser.email }),
      });
      expect(answer.status).toBe(409);
      expect(((await answer.json()) as { error: string }).error).toContain('npm run admin:reset-password');
    } finally {
      await plain.stop();
    }
  });
});

describe('passkeys, from the server’s side', () => {
  it('adding one needs a session; a made-up or malformed answer to a sign-in is a Spanish 401, never a 500', async () => {
    expect((await post(null, '/api/auth/passkeys/register/options', {})).status).toBe(401);
    expect((await call(null, '/api/auth/passkeys')).status).toBe(401);
    const options = (await (await post(null, '/api/auth/passkeys/login/options', {})).json()) as {
      challengeId: string;
      options: { challenge: string; rpId: string };
    };
    expect(options.options.rpId).toBe('127.0.0.1');
    expect(options.options.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const madeUp = {
      challengeId: options.challengeId,
      response: {
        id: 'AAAAAAAAAAAAAAAAAAAAAA',
        rawId: 'AAAAAAAAAAAAAAAAAAAAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      },
    };
    for (const body of [madeUp, madeUp, { challengeId: 'x' }, { response: 'nada' }]) {
      const answer = await post(null, '/api/auth/passkeys/login', body);
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error: string }).error).toBe(
        'No reconocimos esta llave de acceso. Entra con tu contraseña o usa otra llave.',
      );
    }
    // The challenge was used once: it is gone.
    expect(await sql('SELECT 1 FROM webauthn_challenges WHERE id = $1', [options.challengeId])).toEqual([]);
  });
});

describe('passkeys required for administrators', () => {
  /** The server-side session a cookie carries (the token's jti). */
  const sessionOf = (cookie: string) =>
    (JSON.parse(Buffer.from(cookie.split('=')[1]?.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
  const setting = (cookie: string, on: boolean) =>
    call(cookie, '/api/admin/team/settings', { method: 'PATCH', body: JSON.stringify({ adminPasskeyRequired: on }) });

  it('is turned on only from a passkey session; then an administrator’s password session reaches only their account', async () => {
    const refused = await setting(admin, true);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Para exigir llaves de acceso, primero entra/);
    expect(await sql('SELECT admin_passkey_required AS on FROM team_settings')).toEqual([{ on: false }]);

    // The browser story signs in with a real passkey (Chromium's virtual authenticator); here the
    // session is marked as opened with one, which is all the server remembers of it.
    await sql(`UPDATE sessions SET method = 'passkey' WHERE id = $1`, [sessionOf(admin)]);
    const on = await setting(admin, true);
    expect(on.status).toBe(200);
    expect(((await on.json()) as { adminPasskeyRequired: boolean }).adminPasskeyRequired).toBe(true);
    expect((await call(admin, '/api/admin/team')).status).toBe(200);

    const second = await join('admin', 'Sofía Canul', 'segunda-admin-1');
    const signedIn = await login(server.url, second.email, second.password);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { passkeyPending: boolean }).passkeyPending).toBe(true);
    const pending = cookieOf(signedIn);
    for (const path of ['/api/admin/team', '/api/admin/contacts', '/api/admin/quote-requests']) {
      const answer = await call(pending, path);
      expect(answer.status, path).toBe(403);
      expect(((await answer.json()) as { code: string }).code).toBe('passkey_required');
    }
    expect(
      ((await (await call(pending, '/api/auth/session')).json()) as { passkeyPending: boolean }).passkeyPending,
    ).toBe(true);
    // Without a passkey yet, the password session may add the first one.
    expect((await call(pending, '/api/auth/passkeys')).status).toBe(200);
    expect((await post(pending, '/api/auth/passkeys/register/options', {})).status).toBe(200);
    // With one, a password alone can neither add nor remove passkeys.
    await sql(`INSERT INTO passkeys (id, user_id, public_key, name) VALUES ($1, $2, '\\x00', 'Teléfono')`, [
      'llave-de-prueba-0001',
      second.id,
    ]);
    const addAnother = await post(pending, '/api/auth/passkeys/register/options', {});
    expect(addAnother.status).toBe(403);
    expect((await call(pending, '/api/auth/passkeys/llave-de-prueba-0001', { method: 'DELETE' })).status).toBe(403);

    // Advisers are not administrators: their password sessions work as before.
    const adviser = await join('asesor', 'Iván Ek');
    expect((await call(adviser.cookie, '/api/admin/contacts')).status).toBe(200);

    // The way back when the only passkey is lost: the reset command removes the member's passkeys.
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const run = await promisify(execFile)(
      process.execPath,
      ['scripts/admin-reset-password.ts', second.email, '--quitar-llaves'],
      { env: process.env, encoding: 'utf8' },
    );
    expect(run.stdout).toContain('Se quitaron sus llaves de acceso');
    expect(await sql('SELECT id FROM passkeys WHERE user_id = $1', [second.id])).toEqual([]);
    const [removed] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'passkey_removed' ORDER BY at DESC LIMIT 1`,
    );
    expect(removed?.summary).toContain(second.email);

    const off = await setting(admin, false);
    expect(off.status).toBe(200);
    const again = cookieOf(await login(server.url, second.email, second.password));
    expect((await call(again, '/api/admin/team')).status).toBe(200);
    const kinds = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'settings_changed' ORDER BY at DESC LIMIT 2`,
    );
    expect(kinds.map((row) => row.summary)).toEqual([
      'Dejó de exigir llave de acceso a los administradores',
      'Exigió llave de acceso a los administradores',
    ]);
  });
});

describe('every new endpoint', () => {
  it('answers 401 without a session and 403 to a write from another site', async () => {
    const endpoints: [string, string, unknown?][] = [
      ['GET', '/api/admin/team'],
      ['POST', '/api/admin/team/invitations', { email: 'x@ceiba.mx', role: 'asesor' }],
      ['PATCH', '/api/admin/team/settings', { roundRobin: true }],
      ['PATCH', '/api/admin/team/members/00000000-0000-4000-8000-000000000000', { active: false }],
      ['DELETE', '/api/admin/team/invitations/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/admin/activity'],
      ['POST', '/api/auth/password', { current: 'x', password: 'clave-nueva-1' }],
      ['GET', '/api/auth/passkeys'],
      ['POST', '/api/auth/passkeys/register/options', {}],
    ];
    for (const [method, path, body] of endpoints) {
      const anonymous = await fetch(server.url + path, {
        method,
        headers: { Origin: originOf(server.url), 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      if (method === 'GET') continue;
      const crossSite = await fetch(server.url + path, {
        method,
        headers: { Cookie: admin, Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(crossSite.status, `cross-site ${method} ${path}`).toBe(403);
    }
    for (const path of ['/api/auth/invitation', '/api/auth/recovery', '/api/auth/passkeys/login/options']) {
      const crossSite = await fetch(server.url + path, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(crossSite.status, `cross-site POST ${path}`).toBe(403);
    }
  });
});
