import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, forgeToken, login, originOf, setupAdmin } from '../support/admin.ts';
import { partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

const SECRET = process.env.JWT_SECRET as string;
const ADMIN = { email: 'admin@ceiba.mx', password: 'contraseña-segura' };

let server: RunningServer;
let cookie: string;
let adminId: string;

beforeAll(async () => {
  server = await startServer();
  cookie = await setupAdmin(server.url, ADMIN.email, ADMIN.password);
  adminId = ((await sql<{ id: string }>('SELECT id FROM users WHERE email = $1', [ADMIN.email]))[0] as { id: string })
    .id;
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
const del = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: 'DELETE', headers: { Origin: originOf(server.url), ...headers } });

describe('setup', () => {
  it('exists once: a second setup gets 409 and admin-exists says so', async () => {
    expect(await (await get('/api/admin-exists')).json()).toEqual({ exists: true });
    const again = await postJson(
      `${server.url}/api/auth/setup`,
      { email: 'otro@ceiba.mx', password: 'otra-contraseña' },
      {
        Origin: originOf(server.url),
      },
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: 'Ya existe una cuenta de administrador. Inicia sesión.' });
    expect(await countRows('users')).toBe(1);
  });

  it('stores a bcrypt hash (cost 12; 4 under NODE_ENV=test, src/server/auth/passwords.ts), never the password', async () => {
    const [user] = await sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [adminId]);
    expect(user?.password_hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare(ADMIN.password, user?.password_hash as string)).toBe(true);
  });
});

describe('setup on a fresh database', () => {
  it('leaves exactly one administrator after 20 concurrent attempts', async () => {
    const { inject } = await import('vitest');
    const { createTestDatabase } = await import('../support/databases.ts');
    const fresh = await startServer({ DATABASE_URL: await createTestDatabase(inject('pgAdminUrl')) });
    expect(await (await fetch(`${fresh.url}/api/admin-exists`)).json()).toEqual({ exists: false });
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        postJson(
          `${fresh.url}/api/auth/setup`,
          { email: `admin${index}@ceiba.mx`, password: 'contraseña-segura' },
          {
            Origin: originOf(fresh.url),
          },
        ),
      ),
    );
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // The others lost the race (409) or found the password checks busy (429); none got in.
    expect(statuses.filter((status) => status === 409 || status === 429)).toHaveLength(19);
    expect(await (await fetch(`${fresh.url}/api/admin-exists`)).json()).toEqual({ exists: true });
  });

  it('asks for a password of at least 8 characters and at most 72 bytes', async () => {
    const { inject } = await import('vitest');
    const { createTestDatabase } = await import('../support/databases.ts');
    const fresh = await startServer({ DATABASE_URL: await createTestDatabase(inject('pgAdminUrl')) });
    const setup = (password: string) =>
      postJson(`${fresh.url}/api/auth/setup`, { email: 'a@ceiba.mx', password }, { Origin: originOf(fresh.url) });
    const short = await setup('corta');
    expect(short.status).toBe(400);
    expect((await short.json()).fields.password).toBe('Usa al menos 8 caracteres.');
    const long = await setup('ñ'.repeat(37));
    expect((await long.json()).fields.password).toMatch(/demasiado larga/);
    expect((await fetch(`${fresh.url}/api/admin-exists`).then((response) => response.json())).exists).toBe(false);
  });
});

describe('login', () => {
  it('sets an HttpOnly, SameSite=Strict cookie for 8 hours', async () => {
    const response = await login(server.url, 'ADMIN@ceiba.mx ', ADMIN.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      user: { id: adminId, email: ADMIN.email, name: null, role: 'admin' },
      admin: true,
      passkeyPending: false,
    });
    const header = response.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^ceiba_session=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800$/);
  });

  it('answers a wrong e-mail and a wrong password alike', async () => {
    const wrongPassword = await login(server.url, ADMIN.email, 'no-es-esta');
    const wrongEmail = await login(server.url, 'nadie@ceiba.mx', ADMIN.password);
    expect([wrongPassword.status, wrongEmail.status]).toEqual([401, 401]);
    expect(await wrongPassword.json()).toEqual(await wrongEmail.json());
    await sql('DELETE FROM login_failures');
  });

  it('refuses a sixth attempt within 15 minutes after five failures, even with the right password', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login(server.url, ADMIN.email, `mal-${attempt}`)).status).toBe(401);
    }
    const blocked = await login(server.url, ADMIN.email, ADMIN.password);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).error).toBe('Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo.');
    // The same IP is blocked for any e-mail too.
    expect((await login(server.url, 'otro@ceiba.mx', 'x')).status).toBe(429);
    // After the window the administrator gets in again.
    await sql(`UPDATE login_failures SET failed_at = now() - interval '16 minutes'`);
    expect((await login(server.url, ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('refuses a login posted from another site', async () => {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify(ADMIN),
    });
    expect(response.status).toBe(403);
  });
});

describe('every admin endpoint', () => {
  const endpoints = [
    ['GET', '/api/admin/quote-requests'],
    ['GET', '/api/admin/partner-applications'],
    ['GET', '/api/admin/quick-quotes'],
    ['GET', '/api/admin/quote-requests/export.csv'],
    ['GET', '/api/admin/partner-applications/export.csv'],
    ['GET', '/api/admin/quick-quotes/export.csv'],
    ['DELETE', `/api/admin/quote-requests/${randomUUID()}`],
    ['DELETE', `/api/admin/partner-applications/${randomUUID()}`],
    ['DELETE', `/api/admin/quick-quotes/${randomUUID()}`],
  ] as const;
  const call = (method: string, path: string, cookieHeader?: string) =>
    method === 'GET'
      ? get(path, cookieHeader ? { Cookie: cookieHeader } : {})
      : del(path, cookieHeader ? { Cookie: cookieHeader } : {});

  it('answers 401 without a cookie, with a tampered token, alg none, another secret or an expired token', async () => {
    const valid = cookie.split('=')[1] as string;
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url')}.${signature}`;
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    const otherSecret = await forgeToken({ secret: 'another-secret-of-at-least-32-bytes!!', sub: adminId });
    const expired = await forgeToken({ secret: SECRET, sub: adminId, expiresIn: '-1m' });
    const otherIssuer = await forgeToken({ secret: SECRET, sub: adminId, issuer: 'somebody-else' });
    const noSession = await forgeToken({ secret: SECRET, sub: adminId });
    const [session] = await sql<{ id: string }>(
      `INSERT INTO sessions (user_id, expires_at) VALUES ($1, now() + interval '1 hour') RETURNING id`,
      [adminId],
    );

    for (const [method, path] of endpoints) {
      for (const token of [undefined, tampered, none, otherSecret, expired, otherIssuer, noSession, 'basura']) {
        const response = await call(method, path, token === undefined ? undefined : `ceiba_session=${token}`);
        expect(response.status, `${method} ${path} ${token?.slice(0, 12)}`).toBe(401);
      }
    }
    // The control: our own token signed with the real secret works.
    expect(
      (
        await call(
          'GET',
          '/api/admin/quick-quotes',
          `ceiba_session=${await forgeToken({ secret: SECRET, sub: adminId, jti: session?.id })}`,
        )
      ).status,
    ).toBe(200);
  });

  it('answers 403 to a signed-in user without the admin role', async () => {
    const hash = await bcrypt.hash('usuario-normal', 4);
    await sql(`INSERT INTO users (email, password_hash) VALUES ('vendedor@ceiba.mx', $1) ON CONFLICT DO NOTHING`, [
      hash,
    ]);
    const response = await login(server.url, 'vendedor@ceiba.mx', 'usuario-normal');
    expect(await response.json()).toMatchObject({ admin: false });
    const userCookie = cookieOf(response);
    for (const [method, path] of endpoints) {
      const answer = await call(method, path, userCookie);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect((await answer.json()).error).toBe('No tienes permisos para acceder al panel de administración');
    }
  });
});

describe('lists, deletion and export', () => {
  it('lists newest first with the total and a cursor to the next page', async () => {
    const names = Array.from({ length: 5 }, (_, index) => `Página ${index}`);
    for (const name of names) await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name }));
    const first = await (await get('/api/admin/quick-quotes?limit=3', { Cookie: cookie })).json();
    expect(first.total).toBeGreaterThanOrEqual(5);
    expect(first.items.slice(0, 3).map((row: { name: string }) => row.name)).toEqual([
      'Página 4',
      'Página 3',
      'Página 2',
    ]);
    expect(first.items[0]).not.toHaveProperty('idempotency_key');
    const second = await (
      await get(`/api/admin/quick-quotes?limit=3&cursor=${first.nextCursor}`, { Cookie: cookie })
    ).json();
    expect(second.items.slice(0, 2).map((row: { name: string }) => row.name)).toEqual(['Página 1', 'Página 0']);
    expect((await get('/api/admin/quick-quotes?cursor=nada', { Cookie: cookie })).status).toBe(400);
  });

  it('deletes one lead for a same-origin request, and nothing for a cross-origin one', async () => {
    const { id } = await (
      await postJson(`${server.url}/api/quote-requests`, preFilter({ name: 'Para borrar' }))
    ).json();
    const crossSite = await del(`/api/admin/quote-requests/${id}`, { Cookie: cookie, Origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const noOrigin = await fetch(`${server.url}/api/admin/quote-requests/${id}`, {
      method: 'DELETE',
      headers: { Cookie: cookie },
    });
    expect(noOrigin.status).toBe(403);
    expect(await countRows('quote_requests', 'id = $1', [id])).toBe(1);

    expect((await del(`/api/admin/quote-requests/${id}`, { Cookie: cookie })).status).toBe(204);
    expect(await countRows('quote_requests', 'id = $1', [id])).toBe(0);
    expect((await del(`/api/admin/quote-requests/${id}`, { Cookie: cookie })).status).toBe(404);
  });

  it('exports a CSV with BOM, Spanish headers, Mérida dates, RFC 4180 quoting and no formulas', async () => {
    const hostile = partnerApplication({
      name: '=HYPERLINK("http://evil.example","clic")',
      municipality: 'Tulum, "Quintana Roo"',
      utm_source: '@SUM(1+1)',
      utm_campaign: '-2+3',
      utm_content: '+52 999',
      referrer: "'; DROP TABLE users; --",
    });
    await postJson(`${server.url}/api/partner-applications`, hostile);
    const response = await get('/api/admin/partner-applications/export.csv', { Cookie: cookie });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="solicitudes_socios.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes); // drops the BOM
    const [header, row] = text.split('\r\n');
    expect(header).toBe(
      'Fecha,Nombre,Teléfono,Rol,Tipo de proyecto,Estado,Municipio,Superficie,Inversión,Plazo,Documentación legal,Paga consultoría,Puntaje,Puntos,Estatus,Campaña,utm_source,utm_medium,utm_campaign,utm_term,utm_content,Referencia,Página de llegada,Acepta promociones,Aviso de privacidad aceptado,Versión del aviso de privacidad',
    );
    expect(row).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d,/);
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""clic"")"`);
    expect(row).toContain('"Tulum, ""Quintana Roo"""');
    expect(row).toContain(",'@SUM(1+1),");
    expect(row).toContain(",'-2+3,");
    expect(row).toContain(",'+52 999,");
    expect(row).toContain(",'+529991112233,");
    expect(row).toContain(',Desarrollador,Turístico,Quintana Roo,');
    expect(row).toContain(',100%,13,Aprobado,');
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('streams every row of a large table', async () => {
    await sql(
      `WITH contact AS (
         INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529990000000', 'Fila', true)
         ON CONFLICT (phone) DO UPDATE SET name = excluded.name RETURNING id
       )
       INSERT INTO cotizaciones_rapidas (name, phone, contact_id, created_at)
       SELECT 'Fila ' || n, '+529990000000', (SELECT id FROM contact), now() - n * interval '1 second'
       FROM generate_series(1, 2500) AS n`,
    );
    const total = await countRows('cotizaciones_rapidas');
    const text = await (await get('/api/admin/quick-quotes/export.csv', { Cookie: cookie })).text();
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(total + 1);
    const rows = lines.map((line) => /,Fila (\d+),/.exec(line)?.[1]).filter(Boolean);
    expect(new Set(rows).size).toBe(2500); // each row once: no page skipped or repeated
  });
});

describe('session and logout', () => {
  it('reports the session, and logout clears the cookie', async () => {
    const session = await get('/api/auth/session', { Cookie: cookie });
    expect(await session.json()).toEqual({
      user: { id: adminId, email: ADMIN.email, name: null, role: 'admin' },
      admin: true,
      passkeyPending: false,
    });
    expect(await (await get('/api/auth/session')).json()).toEqual({ user: null, admin: false });
    const logout = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: originOf(server.url) },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get('set-cookie')).toMatch(/^ceiba_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
  });
});

describe('behind a reverse proxy on this machine', () => {
  it('with TRUST_PROXY=loopback: Secure cookie, and the same-origin check on the public origin', async () => {
    const proxiedServer = await startServer({ TRUST_PROXY: 'loopback' });
    const proxied = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'www.ceibacasas.mx' };
    const response = await fetch(`${proxiedServer.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://www.ceibacasas.mx', ...proxied },
      body: JSON.stringify(ADMIN),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toMatch(/; Secure$/);
  });

  it('without TRUST_PROXY, forwarded headers are not believed', async () => {
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: 'https://www.ceibacasas.mx',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'www.ceibacasas.mx',
      },
      body: JSON.stringify(ADMIN),
    });
    expect(response.status).toBe(403);
    // The operator is told how to trust the proxy (the log line may reach this process after the answer).
    await expect.poll(() => server.output()).toMatch(/"event":"forwarded_headers_ignored".*TRUST_PROXY=loopback/);
  });
});
