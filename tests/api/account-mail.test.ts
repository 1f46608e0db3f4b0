import { request as httpRequest } from 'node:http';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { ACCOUNT_EMAIL_TASK } from '../../src/server/team/account-mail.ts';
import { cookieOf, login, memberRequest, originOf, setupAdmin } from '../support/admin.ts';
import { type HeldSmtpReceiver, startHeldSmtpReceiver } from '../support/receivers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';

/**
 * Issue #23, items 2, 3, 8 and 10: the links we e-mail point to our own site
 * whatever Host or X-Forwarded-Host a request carries; recovery e-mails are
 * limited per member and per address behind one same answer; no header
 * carries token material; and a mail server that is slow or down neither
 * holds a request up nor loses the e-mail.
 */

/** A POST with the Host (and any header) an attacker chooses: node:http lets us write Host. */
function forgedPost(
  baseUrl: string,
  pathname: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        host: hostname,
        port,
        path: pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    call.on('error', reject);
    call.end(JSON.stringify(body));
  });
}

const addressedTo = (address: string) => (mail: ParsedMail) =>
  [mail.to].flat().some((to) => to?.text.includes(address));

/** The e-mail sent to `address`, once it has arrived: other e-mails of the file may arrive before or after it. */
async function mailTo(smtp: HeldSmtpReceiver, address: string, what: string, timeoutMs?: number): Promise<ParsedMail> {
  const addressed = addressedTo(address);
  await until(() => smtp.messages.some(addressed), what, timeoutMs);
  return smtp.messages.find(addressed) as ParsedMail;
}

const linkIn = (mail: ParsedMail | undefined): string =>
  /https?:\/\/\S+#[A-Za-z0-9_-]{43}/.exec(mail?.text ?? '')?.[0] ?? '';

async function addMember(email: string): Promise<void> {
  const [user] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ($1, $2, 'Asesora') RETURNING id`,
    [email, await hashPassword('clave-de-asesora-1')],
  );
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [user?.id]);
}

const SITE_URL = 'https://panel.ceiba.example';

/** The file's one administrator (every server here shares this file's database), signed in. */
async function signedInAdmin(baseUrl: string): Promise<string> {
  if ((await countRows('users')) === 0) return setupAdmin(baseUrl);
  return cookieOf(await login(baseUrl, 'admin@ceiba.mx', 'contraseña-segura'));
}

describe.each([
  { site: 'SITE_URL set', env: { SITE_URL } },
  { site: 'SITE_URL unset (the local default)', env: { SITE_URL: undefined } },
])('links in e-mails with a forged Host or X-Forwarded-Host ($site)', ({ env }) => {
  let smtp: HeldSmtpReceiver;
  let server: RunningServer;
  let admin: string;
  let site: string;

  beforeAll(async () => {
    smtp = await startHeldSmtpReceiver();
    server = await startServer({
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL_FROM: 'Avisos <avisos@ceiba.mx>',
      NOTIFY_EMAIL_TO: 'equipo@ceiba.mx',
      // The README's nginx recipe: the proxy's X-Forwarded-* are believed.
      TRUST_PROXY: 'loopback',
      PLATFORM_RATE_LIMIT: '0',
      ...env,
    });
    site = env.SITE_URL ?? server.url;
    admin = await signedInAdmin(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it.each<{ header: string; headers: Record<string, string> }>([
    { header: 'Host', headers: { Host: 'evil.example', Origin: 'http://evil.example' } },
    { header: 'X-Forwarded-Host', headers: { 'X-Forwarded-Host': 'evil.example', Origin: 'http://evil.example' } },
  ])('the reset link of a recovery asked with a forged $header points to our site', async ({ headers }) => {
    const email = `asesora-${Math.random().toString(36).slice(2, 8)}@ceiba.mx`;
    await addMember(email);
    const answer = await forgedPost(server.url, '/api/auth/recovery', { email }, headers);
    expect(answer.status).toBe(202);
    const mail = await mailTo(smtp, email, 'the reset e-mail');
    const link = linkIn(mail);
    expect(link.startsWith(`${site}/auth/restablecer#`)).toBe(true);
    expect(mail?.text).not.toContain('evil.example');
    expect(mail?.html).not.toContain('evil.example');
    // Item 8: no header carries any part of the token.
    const token = link.split('#')[1] as string;
    for (const [name, value] of mail?.headers ?? []) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      for (let start = 0; start + 8 <= token.length; start += 1) {
        expect(text, name).not.toContain(token.slice(start, start + 8));
      }
    }
  });

  it('the invitation link, shown and e-mailed, points to our site whatever Host the administrator’s request had', async () => {
    const invited = `invitada-${Math.random().toString(36).slice(2, 8)}@ceiba.mx`;
    const answer = await forgedPost(
      server.url,
      '/api/admin/team/invitations',
      { email: invited, role: 'asesor' },
      { Host: 'evil.example', Origin: 'http://evil.example', Cookie: admin },
    );
    expect(answer.status).toBe(201);
    const { link } = JSON.parse(answer.body) as { link: string };
    expect(link.startsWith(`${site}/auth/invitacion#`)).toBe(true);
    expect(linkIn(await mailTo(smtp, invited, 'the invitation e-mail'))).toBe(link);
  });
});

describe('recovery limits and a mail server that is slow or down', () => {
  let smtp: HeldSmtpReceiver;
  let server: RunningServer;
  let admin: string;

  beforeAll(async () => {
    smtp = await startHeldSmtpReceiver();
    server = await startServer({
      SMTP_URL: smtp.url,
      NOTIFY_EMAIL_FROM: 'Avisos <avisos@ceiba.mx>',
      NOTIFY_EMAIL_TO: 'equipo@ceiba.mx',
      // The recovery endpoint's own per-minute platform limit would hide what is tested here.
      PLATFORM_RATE_LIMIT: '0',
      // Each test speaks from an address of its own (X-Forwarded-For), as visitors behind a proxy.
      TRUST_PROXY: 'loopback',
    });
    admin = await signedInAdmin(server.url);
  });
  afterEach(() => smtp.open());
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  /** Recovery requests whose work after the answer is done (the server logs one line each). */
  const handled = () => (server.output().match(/"event":"recovery_handled"/g) ?? []).length;
  const recover = (email: string, ip: string) =>
    fetch(`${server.url}/api/auth/recovery`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'X-Forwarded-For': ip },
      body: JSON.stringify({ email }),
    });

  it('40 recovery requests for one member send at most 3 e-mails, each answered the same', async () => {
    await addMember('bombardeada@ceiba.mx');
    const handledBefore = handled();
    const answers = await Promise.all(Array.from({ length: 40 }, () => recover('bombardeada@ceiba.mx', '203.0.113.1')));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([202]));
    expect(new Set(bodies).size).toBe(1);
    const [member] = await sql<{ id: string }>(`SELECT id FROM users WHERE email = 'bombardeada@ceiba.mx'`);
    // Every request's work after the answer is done (one log line each), and the three e-mails arrived.
    await until(() => handled() >= handledBefore + 40, 'the work of all 40 requests');
    await until(
      async () =>
        smtp.messages.filter((mail) => mail.to && JSON.stringify(mail.to).includes('bombardeada')).length >= 3,
      'three e-mails',
    );
    expect(await countRows('password_resets', 'user_id = $1', [member?.id])).toBe(3);
    // The three links are the member's (the last one works; asking again sent nothing more).
    const sent = smtp.messages.filter((mail) => JSON.stringify(mail.to).includes('bombardeada'));
    expect(sent).toHaveLength(3);
  });

  it('one address gets at most 10 reset e-mails an hour across members; another address still gets its own', async () => {
    const emails = Array.from({ length: 4 }, (_, index) => `miembro-${index}@ceiba.mx`);
    for (const email of emails) await addMember(email);
    const before = await countRows('password_resets');
    const handledBefore = handled();
    for (const email of emails) {
      for (let round = 0; round < 3; round += 1) expect((await recover(email, '203.0.113.2')).status).toBe(202);
    }
    // Each request's work runs after its answer, in whatever order the machine gets to it: wait for all twelve.
    await until(() => handled() >= handledBefore + 12, 'the work of all 12 requests');
    // Twelve asked from one address; ten were sent.
    expect((await countRows('password_resets')) - before).toBe(10);
    // A member refused from that address (whichever the refusals fell on) gets a link asked from another one.
    const links = await sql<{ id: string; email: string; links: number }>(
      `SELECT u.id, u.email, count(r.*)::int AS links FROM users u LEFT JOIN password_resets r ON r.user_id = u.id
       WHERE u.email = ANY($1) GROUP BY u.id ORDER BY links, u.email LIMIT 1`,
      [emails],
    );
    const refused = links[0] as { id: string; email: string; links: number };
    expect(refused.links).toBeLessThan(3);
    expect((await recover(refused.email, '203.0.113.3')).status).toBe(202);
    await until(
      async () => (await countRows('password_resets', 'user_id = $1', [refused.id])) > refused.links,
      'its own link',
    );
    // The eleven e-mails arrive (and nothing of this test is still on its way to the next one's server).
    await until(
      () => smtp.messages.filter((mail) => JSON.stringify(mail.to).includes('miembro-')).length === 11,
      '11 e-mails',
    );
  });

  it('an invitation is answered while the mail server holds the e-mail, and the e-mail arrives when it lets go', async () => {
    smtp.hold();
    const post = memberRequest(() => server.url);
    const answer = await post(admin, '/api/admin/team/invitations', {
      method: 'POST',
      body: JSON.stringify({ email: 'paciente@ceiba.mx', role: 'asesor' }),
    });
    expect(answer.status).toBe(201);
    expect((await answer.json()).emailed).toBe(true);
    // The request did not wait: the mail is still inside the SMTP server's DATA (beside any other held e-mail).
    await until(() => smtp.held().some(addressedTo('paciente@ceiba.mx')), 'the e-mail to reach the held server');
    expect(smtp.messages.some(addressedTo('paciente@ceiba.mx'))).toBe(false);
    smtp.open();
    await mailTo(smtp, 'paciente@ceiba.mx', 'the invitation e-mail');
  });

  it('a reset e-mail the mail server refuses at first is sent again until it is accepted, and its link lifts a lock', async () => {
    await addMember('reintento@ceiba.mx');
    // Someone failed 50 times with this e-mail from many addresses: the account is locked everywhere.
    await sql(
      `INSERT INTO login_failures (method, email, ip) SELECT 'password', 'reintento@ceiba.mx', '198.51.100.' || n FROM generate_series(1, 50) AS n`,
    );
    expect((await login(server.url, 'reintento@ceiba.mx', 'clave-de-asesora-1')).status).toBe(429);
    smtp.refuse(2);
    expect((await recover('reintento@ceiba.mx', '203.0.113.4')).status).toBe(202);
    const mail = await mailTo(smtp, 'reintento@ceiba.mx', 'the retried reset e-mail', 30_000);
    // The link still works: redeeming it sets the password and signs in.
    const token = linkIn(mail).split('#')[1];
    const reset = await fetch(`${server.url}/api/auth/recovery/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ token, password: 'clave-nueva-del-reintento' }),
    });
    expect(reset.status).toBe(204);
    expect((await login(server.url, 'reintento@ceiba.mx', 'clave-nueva-del-reintento')).status).toBe(200);
  });

  it('a reset e-mail refused many times (a mail server down for longer than minutes) is sent while its link works', async () => {
    await addMember('paciente@ceiba.mx');
    smtp.refuse(8);
    expect((await recover('paciente@ceiba.mx', '203.0.113.5')).status).toBe(202);
    // Each try made due at once instead of waiting its pause (graphile-worker's e^n seconds).
    const due = setInterval(() => {
      void sql(
        `UPDATE graphile_worker._private_jobs SET run_at = now()
         WHERE locked_at IS NULL AND task_id IN (SELECT id FROM graphile_worker._private_tasks WHERE identifier = $1)`,
        [ACCOUNT_EMAIL_TASK],
      ).catch(() => undefined);
    }, 250);
    try {
      await mailTo(smtp, 'paciente@ceiba.mx', 'the reset e-mail after eight refusals', 60_000);
    } finally {
      clearInterval(due);
    }
  });
});

describe('an account e-mail whose server dies on its first try', () => {
  it('is sent by the next server, once: it was queued before the first try', async () => {
    const dying = await startHeldSmtpReceiver({ held: true });
    const working = await startHeldSmtpReceiver();
    const env = {
      NOTIFY_EMAIL_FROM: 'Avisos <avisos@ceiba.mx>',
      NOTIFY_EMAIL_TO: 'equipo@ceiba.mx',
      PLATFORM_RATE_LIMIT: '0',
      // A send claimed this long ago by a process that died is taken over (the queue's upkeep).
      NOTIFY_LOCK_TIMEOUT_SECONDS: '2',
    };
    // The stories above may leave e-mails of theirs still being tried (for as long as their links work).
    const earlier = (
      await sql<{ id: string }>(
        `SELECT id::text FROM graphile_worker.jobs WHERE task_identifier = 'send_account_email'`,
      )
    ).map((row) => row.id);
    let server = await startServer({ ...env, SMTP_URL: dying.url });
    try {
      const admin = await signedInAdmin(server.url);
      const answer = await memberRequest(() => server.url)(admin, '/api/admin/team/invitations', {
        method: 'POST',
        body: JSON.stringify({ email: 'sobreviviente@ceiba.mx', role: 'asesor' }),
      });
      expect(answer.status).toBe(201);
      // The first try is inside the mail server's DATA when the process is killed (a crash, a function's time limit).
      await until(() => dying.held().some(addressedTo('sobreviviente@ceiba.mx')), 'the first try at the mail server');
      await server.stop('SIGKILL');
      server = await startServer({ ...env, SMTP_URL: working.url });
      const mail = await mailTo(working, 'sobreviviente@ceiba.mx', 'the invitation, sent by the next server');
      expect(linkIn(mail)).toMatch(/\/auth\/invitacion#/);
      await until(
        async () =>
          (await countRows(
            'graphile_worker.jobs',
            `task_identifier = 'send_account_email' AND id::text <> ALL($1::text[])`,
            [earlier],
          )) === 0,
        'its job done',
      );
      expect(working.messages.filter(addressedTo('sobreviviente@ceiba.mx'))).toHaveLength(1);
    } finally {
      await server.stop();
      await Promise.all([dying.close(), working.close()]);
    }
  });
});
