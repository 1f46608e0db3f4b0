import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { cookieOf, forgeToken, login, originOf, setupAdmin } from '../support/admin.ts';
import { freshServer } from '../support/fresh-server.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer } from '../support/server.ts';

/** Issue #9, authentication: the login lock under concurrency, hashing that cannot stall the site, revocable sessions. */
const SECRET = process.env.JWT_SECRET as string;
const ADMIN = { email: 'admin@ceiba.mx', password: 'contraseña-segura' };
const BLOCKED = 'Demasiados intentos fallidos. Espera 15 minutos e inténtalo de nuevo.';
const BUSY = 'Estamos verificando muchos inicios de sesión a la vez. Espera unos segundos e inténtalo de nuevo.';

const count = (statuses: number[], status: number) => statuses.filter((value) => value === status).length;
/** These floods test the app's own lock and queue: the functions' rateLimit (platform-rate-limit.test.ts) would answer first. */
const UNLIMITED = { PLATFORM_RATE_LIMIT: '0' };

async function query<Row extends pg.QueryResultRow>(server: RunningServer, text: string, values: unknown[] = []) {
  const url = /DATABASE_URL=(\S+)/.exec(
    readFileSync(`/proc/${server.process.pid}/environ`, 'utf8').replaceAll('\0', ' '),
  )?.[1];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** CPU seconds the server process has used so far (user + system). */
function cpuSeconds(server: RunningServer): number {
  const fields = readFileSync(`/proc/${server.process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('the login lock under concurrency', () => {
  it('checks at most 5 of 30 wrong passwords sent at once; the rest get 429', async () => {
    const server = await freshServer(UNLIMITED); // the app's own answers to a flood, not the platform's
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, (_, index) => login(server.url, ADMIN.email, `mal-${index}`)))
    ).map((response) => response.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(5);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(30);
    const failures = await query<{ n: number }>(server, 'SELECT count(*)::int AS n FROM login_failures');
    expect(failures[0]?.n).toBeLessThanOrEqual(5);
    // Locked: the right password now gets 429 too.
    const blocked = await login(server.url, ADMIN.email, ADMIN.password);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).error).toBe(BLOCKED);
  });

  it('the right password among 39 wrong ones at once is one of at most 5 checks', async () => {
    const server = await freshServer();
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const passwords = Array.from({ length: 40 }, (_, index) => (index === 20 ? ADMIN.password : `mal-${index}`));
    const statuses = (await Promise.all(passwords.map((password) => login(server.url, ADMIN.email, password)))).map(
      (response) => response.status,
    );
    expect(count(statuses, 401) + count(statuses, 200)).toBeLessThanOrEqual(5);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(35);
  });

  it('locks the IP across e-mails, whatever X-Forwarded-For says', async () => {
    const server = await freshServer();
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: originOf(server.url),
          'X-Forwarded-For': `203.0.113.${attempt}`,
        },
        body: JSON.stringify({ email: `otro${attempt}@ceiba.mx`, password: 'mal-mal-mal' }),
      });
      expect(response.status).toBe(401);
    }
    const sixth = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'X-Forwarded-For': '198.51.100.9' },
      body: JSON.stringify({ email: 'nuevo@ceiba.mx', password: 'mal-mal-mal' }),
    });
    expect(sixth.status).toBe(429);
    const stored = await query<{ ip: string }>(server, 'SELECT DISTINCT ip FROM login_failures');
    expect(stored).toEqual([{ ip: '127.0.0.1' }]);
  });
});

describe('password hashing', () => {
  it('a setup refused because an administrator exists costs no hash', async () => {
    const server = await freshServer(UNLIMITED); // the app's own answers to a flood, not the platform's
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const before = cpuSeconds(server);
    const statuses = (
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          postJson(
            `${server.url}/api/auth/setup`,
            { email: `intruso${index}@ceiba.mx`, password: 'otra-contraseña' },
            { Origin: originOf(server.url) },
          ),
        ),
      )
    ).map((response) => response.status);
    expect(statuses).toEqual(Array(30).fill(409));
    // 30 bcrypt hashes of cost 12 take several CPU seconds; 30 refusals take a few hundredths.
    expect(cpuSeconds(server) - before).toBeLessThan(1.5);
  });

  it('60 logins at once: the excess waits or gets a Spanish 429, never a 503, and leads are still stored', async () => {
    const server = await freshServer(UNLIMITED); // the app's own answers to a flood, not the platform's
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const logins = Array.from({ length: 60 }, (_, index) =>
      fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
        // Different e-mails: the per-e-mail lock does not stop them, the password checks are the load.
        body: JSON.stringify({ email: `persona${index}@ceiba.mx`, password: 'mal-mal-mal' }),
      }),
    );
    const lead = await postJson(`${server.url}/api/quick-quotes`, quickQuote());
    expect(lead.status).toBe(201);
    const responses = await Promise.all(logins);
    const statuses = responses.map((response) => response.status);
    expect(count(statuses, 503)).toBe(0);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const [index, status] of statuses.entries()) {
      if (status === 429) expect([BUSY, BLOCKED]).toContain(bodies[index].error);
      else expect(status).toBe(401);
    }
  });
});

describe('sessions', () => {
  it('logout ends the session on the server: the old cookie no longer opens the admin API', async () => {
    const server = await freshServer();
    const cookie = await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const list = () => fetch(`${server.url}/api/admin/quick-quotes`, { headers: { Cookie: cookie } });
    expect((await list()).status).toBe(200);
    const logout = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: originOf(server.url) },
    });
    expect(logout.status).toBe(204);
    expect((await list()).status).toBe(401);
    // Another sign-in is a new session and works.
    const again = cookieOf(await login(server.url, ADMIN.email, ADMIN.password));
    expect((await fetch(`${server.url}/api/admin/quick-quotes`, { headers: { Cookie: again } })).status).toBe(200);
  });

  it('refuses a token without exp, and a signed token whose subject is not a UUID with 401', async () => {
    const server = await freshServer();
    await setupAdmin(server.url, ADMIN.email, ADMIN.password);
    const [admin] = await query<{ id: string }>(server, 'SELECT id FROM users');
    const { SignJWT } = await import('jose');
    const noExp = await new SignJWT({ email: ADMIN.email })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(admin?.id as string)
      .setIssuer('ceiba-admin')
      .setAudience('ceiba-admin')
      .setIssuedAt()
      .sign(new TextEncoder().encode(SECRET));
    const notUuid = await forgeToken({ secret: SECRET, sub: 'no-soy-un-uuid' });
    for (const token of [noExp, notUuid]) {
      const response = await fetch(`${server.url}/api/admin/quick-quotes`, {
        headers: { Cookie: `ceiba_session=${token}` },
      });
      expect(response.status).toBe(401);
    }
  });
});
