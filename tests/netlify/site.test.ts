/**
 * The site as Netlify serves it, proven locally with `@netlify/dev`
 * (Netlify's own emulator of static files, `_headers`, redirects and
 * functions), next to the local server on the same database.
 *
 * One emulator for the whole file: it bundles a function when it is first
 * called (tests/support/netlify-dev-server.ts; several seconds of CPU each),
 * so the tests below call few functions. Add Netlify tests to this file
 * rather than a new one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { listFunctions } from '@netlify/zip-it-and-ship-it';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_HEADERS_FILE, parseBuildHeaders, staticHeadersFor } from '../../src/server/http/headers.ts';
import { cookieOf, login, originOf, setupAdmin } from '../support/admin.ts';
import { type NetlifySite, startNetlifyDev } from '../support/netlify-dev.ts';
import { partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import {
  type HttpReceiver,
  type SmtpReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  startWhatsappFake,
} from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist');
const PAGES = ['/', '/modelos', '/prefiltro', '/estimacion', '/prefiltro-socios', '/aviso-de-privacidad', '/auth'];
const SECURITY_HEADERS = [
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
];

/**
 * POSTs JSON with node:http and resolves with the status once the answer has ended. For the emulator's
 * first call: fetch gives up after 300 s without the answer's headers (undici's headersTimeout), and
 * beside another suite the emulator's bundling of every function took longer than that.
 */
function firstCall(url: string, body: unknown, method = 'POST'): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: { 'Content-Type': 'application/json' } }, (answer) => {
      answer.resume();
      answer.once('end', () => resolve(answer.statusCode ?? 0));
      answer.once('error', reject);
    });
    request.once('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

let site: NetlifySite;
let local: RunningServer;
let smtp: SmtpReceiver;
let webhook: HttpReceiver;
let whatsapp: HttpReceiver;
const WEBHOOK_SECRET = 'emulator-webhook-secret-0123456789';
const WHATSAPP = { token: 'EAAG-emulator', phoneNumberId: '106540352242922' };
/** The quick quote stored through the emulator (the admin tests below look for it). */
let quickQuoteId: string;

beforeAll(async () => {
  if (!existsSync(path.join(DIST, 'index.html')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does).');
  [smtp, webhook, whatsapp] = await Promise.all([
    startSmtpReceiver(),
    startWebhookReceiver(WEBHOOK_SECRET),
    startWhatsappFake(WHATSAPP.token, WHATSAPP.phoneNumberId),
  ]);
  // Every notification channel on, as a production site would have them (issue #11).
  const channels = {
    SITE_URL: 'https://www.ceibacasas.mx',
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    NOTIFY_WEBHOOK_URL: `${webhook.url}/hook`,
    NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    WHATSAPP_TOKEN: WHATSAPP.token,
    WHATSAPP_PHONE_NUMBER_ID: WHATSAPP.phoneNumberId,
    WHATSAPP_TEMPLATE: 'nuevo_prospecto',
    WHATSAPP_TO: '5219991234567',
    WHATSAPP_API_URL: `${whatsapp.url}/v23.0`,
    NOTIFY_RETRY_DELAYS: '1,1,1,1,1',
  };
  [site, local] = await Promise.all([startNetlifyDev(channels), startServer()]);
  // The emulator's first function call waits for it to bundle every function in the background
  // (about a minute on a busy 2-core machine, over 240 s beside another suite and the zip-it-and-ship-it
  // test's bundling; over 600 s on 2026-11-29 with a second `npm test` in its browser half beside it):
  // waited for once here, not inside a test's own timeout. The bound is for a hang.
  const warm = await firstCall(`${site.url}/api/not-found`, { path: '/calentando', referrer: null });
  if (warm !== 204) throw new Error(`the emulator's first function call answered ${warm}`);
  // The lead endpoints' bundles too (a refused body: nothing stored): on a fresh clone beside a second
  // `npm test`, their three first calls inside the test took over its 90 s.
  const refused = await Promise.all(
    ['/api/quick-quotes', '/api/quote-requests', '/api/partner-applications'].map((endpoint) =>
      firstCall(site.url + endpoint, { name: '', phone: '12' }),
    ),
  );
  if (refused.some((status) => status !== 400)) throw new Error(`the lead endpoints answered ${refused}`);
  // And the team's functions the admin test calls, each with a request it refuses (no session, an empty
  // body): on a fresh clone beside a second `npm test`, their first calls inside that test took over its 90 s.
  const team = await Promise.all(
    (
      [
        ['/api/auth/setup', {}, 'POST'],
        ['/api/auth/login', {}, 'POST'],
        ['/api/auth/session', undefined, 'GET'],
        ['/api/admin/quick-quotes', undefined, 'GET'],
        ['/api/admin/contacts', undefined, 'GET'],
      ] as const
    ).map(([endpoint, body, method]) => firstCall(site.url + endpoint, body, method)),
  );
  if (team.some((status) => status >= 500)) throw new Error(`the team's functions answered ${team}`);
}, 1_200_000);

afterAll(async () => {
  await Promise.all([smtp?.close(), webhook?.close(), whatsapp?.close()]);
});

/** The rules of dist/_headers (a path, then its indented headers), as Netlify reads them. */
function netlifyHeaderRules() {
  const rules: { path: string; headers: Record<string, string> }[] = [];
  for (const block of readFileSync(path.join(DIST, '_headers'), 'utf8').split(/\n\s*\n/)) {
    const [pattern, ...lines] = block.split('\n').filter((line) => line.trim());
    if (!pattern) continue;
    const headers = Object.fromEntries(
      lines.map((line) => {
        const [name, ...value] = line.trim().split(': ');
        return [(name as string).toLowerCase(), value.join(': ')];
      }),
    );
    rules.push({ path: pattern.trim(), headers });
  }
  return rules;
}

describe('pages under the emulator', { timeout: 90_000 }, () => {
  it('are the built files, with the headers of dist/_headers, as the local server sends them', async () => {
    const rules = netlifyHeaderRules();
    for (const pathname of PAGES) {
      const [emulated, served] = await Promise.all([fetch(site.url + pathname), fetch(local.url + pathname)]);
      expect(emulated.status, pathname).toBe(200);
      expect(emulated.headers.get('x-emulator-match'), pathname).toBe('static');
      expect(await emulated.text(), pathname).toBe(await served.text());
      const expected = staticHeadersFor(pathname, rules);
      expect(Object.keys(expected), pathname).toEqual(expect.arrayContaining([...SECURITY_HEADERS, 'cache-control']));
      for (const [name, value] of Object.entries(expected)) {
        expect(emulated.headers.get(name), `${pathname} ${name}`).toBe(value);
        expect(served.headers.get(name), `${pathname} ${name} (local server)`).toBe(value);
      }
    }
  });

  it("carry no page CSP: Netlify's build reads it from .netlify/v1/config.json, the emulator does not", async () => {
    // Netlify's build merges the Frameworks API file (the adapter's staticHeaders); @netlify/dev 5
    // reads only netlify.toml and _headers. The local server applies the file: compare with it.
    const buildRules = parseBuildHeaders(readFileSync(path.join(ROOT, BUILD_HEADERS_FILE), 'utf8'));
    for (const pathname of ['/', '/modelos', '/auth']) {
      const csp = buildRules.find((rule) => rule.path === pathname)?.headers['Content-Security-Policy'];
      expect(csp, pathname).toMatch(/frame-ancestors 'none'.*script-src 'self'/);
      const [emulated, served] = await Promise.all([fetch(site.url + pathname), fetch(local.url + pathname)]);
      expect(served.headers.get('content-security-policy'), pathname).toBe(csp);
      expect(emulated.headers.get('content-security-policy'), pathname).toBeNull();
    }
  });

  it('serves fingerprinted assets immutable for a year', async () => {
    const asset = readdirSync(path.join(DIST, '_astro')).find((file) => file.endsWith('.css'));
    const response = await fetch(`${site.url}/_astro/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers an unknown URL with the 404 page and status 404, and no function claims it', async () => {
    for (const pathname of ['/no-existe', '/wp-login.php', '/modelos/casa-grande', '/.env']) {
      const response = await fetch(site.url + pathname);
      expect(response.status, pathname).toBe(404);
      // Nothing of the emulator's (no function, no catch-all) answered: the CDN's 404.html did.
      expect(response.headers.get('x-emulator-match'), pathname).toBe('none');
      expect(await response.text(), pathname).toBe(readFileSync(path.join(DIST, '404.html'), 'utf8'));
      // An unknown path gets `/*`'s headers only; the opener policy is each page's own (src/server/http/headers.ts).
      for (const name of SECURITY_HEADERS.filter((header) => header !== 'cross-origin-opener-policy'))
        expect(response.headers.get(name), `${pathname} ${name}`).not.toBeNull();
    }
    // The page reports the address it could not find to a function of ours.
    const report = await postJson(`${site.url}/api/not-found`, { path: '/no-existe', referrer: null });
    expect(report.status).toBe(204);
    await expect.poll(() => site.output(), { timeout: 5_000 }).toMatch(/"event":"not_found","path":"\/no-existe"/);
  });
});

describe('the build', () => {
  it('ships no server function: Netlify finds none of the adapter in .netlify/v1/functions', async () => {
    const directory = path.join(ROOT, '.netlify/v1/functions');
    const found = existsSync(directory) ? await listFunctions([directory]) : [];
    expect(found.map((fn) => fn.name)).toEqual([]);
    expect(existsSync(path.join(ROOT, '.netlify/build/entry.mjs'))).toBe(false);
  });
});

// Function calls: the first one waits for the emulator's bundling, longer on a busy machine.
describe('the lead endpoints under the emulator', { timeout: 90_000 }, () => {
  it('store a valid lead in PostgreSQL (201) and refuse an invalid one with a Spanish message', async () => {
    const endpoints = [
      { path: '/api/quick-quotes', table: 'cotizaciones_rapidas', body: quickQuote({ name: 'Emulada Rápida' }) },
      { path: '/api/quote-requests', table: 'quote_requests', body: preFilter({ name: 'Emulada Prefiltro' }) },
      {
        path: '/api/partner-applications',
        table: 'partner_applications',
        body: partnerApplication({ name: 'Emulada Socia' }),
      },
    ];
    const answers = await Promise.all(
      endpoints.flatMap(({ path: endpoint, body }) => [
        postJson(site.url + endpoint, body),
        postJson(site.url + endpoint, { ...body, name: '', phone: '12' }),
      ]),
    );
    for (const [index, { path: endpoint, table, body }] of endpoints.entries()) {
      const [stored, refused] = [answers[2 * index] as Response, answers[2 * index + 1] as Response];
      expect(stored.status, endpoint).toBe(201);
      expect(stored.headers.get('x-emulator-match'), endpoint).toBe('function');
      expect(stored.headers.get('content-security-policy'), endpoint).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      const { id } = await stored.json();
      expect(await countRows(table, 'id = $1 AND name = $2', [id, body.name]), endpoint).toBe(1);
      if (table === 'cotizaciones_rapidas') quickQuoteId = id;

      expect(refused.status, endpoint).toBe(400);
      const problem = await refused.json();
      expect(problem.error, endpoint).toMatch(/^(Por favor|Revisa)/);
      expect(problem.fields.name, endpoint).toBe('Escribe tu nombre.');
      expect(Object.keys(problem.fields), endpoint).toContain('phone');
    }
  });
});

describe('the admin API under the emulator', { timeout: 90_000 }, () => {
  it('sets up the administrator, keeps the session, lists the leads; refuses without a session or from another site', async () => {
    expect(quickQuoteId, 'the lead endpoints test runs first').toBeDefined();
    const cookie = await setupAdmin(site.url, 'netlify@ceiba.mx', 'contraseña-segura');
    const sameSite = { Cookie: cookie, Origin: originOf(site.url) };
    // One after another: each cold function opens its own Neon connection (5 s to connect), and on a
    // busy 2-core CI machine four at once beside a password hash could take longer than that.
    const session = await fetch(`${site.url}/api/auth/session`, { headers: { Cookie: cookie } });
    const list = await fetch(`${site.url}/api/admin/quick-quotes`, { headers: { Cookie: cookie } });
    const contacts = await fetch(`${site.url}/api/admin/contacts`, { headers: { Cookie: cookie } });
    const [anonymous, crossSite, wrongPassword] = await Promise.all([
      fetch(`${site.url}/api/admin/quick-quotes`),
      fetch(`${site.url}/api/admin/quick-quotes/${quickQuoteId}`, {
        method: 'DELETE',
        headers: { ...sameSite, Origin: 'https://evil.example' },
      }),
      login(site.url, 'netlify@ceiba.mx', 'otra-contraseña'),
    ]);
    expect(await session.json()).toMatchObject({ admin: true });
    expect(list.status, await list.clone().text()).toBe(200);
    expect((await list.json()).items.map((item: { id: string }) => item.id)).toContain(quickQuoteId);
    // /api/admin/contacts reaches its own function, not /api/admin/:kind (whose excludedPath says so).
    expect(contacts.status, await contacts.clone().text()).toBe(200);
    expect((await contacts.json()).items.map((item: { name: string }) => item.name)).toContain('Emulada Socia');
    expect(anonymous.status).toBe(401);
    expect(crossSite.status).toBe(403);
    expect(await countRows('cotizaciones_rapidas', 'id = $1', [quickQuoteId])).toBe(1);
    expect(wrongPassword.status).toBe(401);

    // A login's cookie works as well, and a same-site delete goes through.
    const again = await login(site.url, 'netlify@ceiba.mx', 'contraseña-segura');
    expect(again.status).toBe(200);
    const deleted = await fetch(`${site.url}/api/admin/quick-quotes/${quickQuoteId}`, {
      method: 'DELETE',
      headers: { Cookie: cookieOf(again), Origin: originOf(site.url) },
    });
    expect(deleted.status).toBe(204);
    expect(await countRows('cotizaciones_rapidas', 'id = $1', [quickQuoteId])).toBe(0);
  });
});

// ---------------------------------------------------------------------------
describe('notifications on the emulated Netlify', { timeout: 90_000 }, () => {
  // WhatsApp's template carries no lead id: its delivery is checked in the database.
  const deliveredTo = (id: string) => ({
    email: smtp.messages.filter((mail) => String(mail.messageId).startsWith(`<${id}.`)).length,
    webhook: webhook.accepted.filter((request) => request.headers['x-ceiba-delivery'] === id).length,
  });

  it('a lead reaches e-mail, webhook and WhatsApp right after its answer (waitUntil), without waiting for the drain', async () => {
    const sentBefore = whatsapp.accepted.length;
    const answer = await postJson(`${site.url}/api/quick-quotes`, quickQuote({ name: 'Emulada Avisos' }));
    expect(answer.status).toBe(201);
    const { id } = (await answer.json()) as { id: string };
    const started = Date.now();
    let seen = deliveredTo(id);
    while (
      (seen.email < 1 || seen.webhook < 1 || whatsapp.accepted.length <= sentBefore) &&
      Date.now() - started < 30_000
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = deliveredTo(id);
    }
    expect({ email: seen.email, webhook: seen.webhook }).toEqual({ email: 1, webhook: 1 });
    expect(whatsapp.accepted.length - sentBefore).toBeGreaterThanOrEqual(1);
    // A receiver has the message before the sender writes 'sent': the rows are waited for too.
    await expect
      .poll(() => countRows('notification_deliveries', `lead_id = $1 AND status = 'sent'`, [id]), { timeout: 30_000 })
      .toBe(3);
    console.log(`emulated Netlify: lead to all three channels in ${Date.now() - started} ms after its answer`);
  });

  it('the scheduled drain sends what is due: a webhook that failed after the answer arrives on the next run', async () => {
    webhook.failing(true);
    const answer = await postJson(`${site.url}/api/quick-quotes`, quickQuote({ name: 'Emulada Reintento' }));
    const { id } = (await answer.json()) as { id: string };
    const waiting = async () =>
      (
        await sql<{ status: string; attempts: number }>(
          `SELECT status, attempts FROM notification_deliveries WHERE lead_id = $1 AND channel = 'webhook'`,
          [id],
        )
      )[0];
    // The first attempt (right after the answer) fails and waits for its retry.
    const retrying = (row: { status: string; attempts: number } | undefined) =>
      row?.status === 'pending' && row.attempts === 1;
    await until(async () => retrying(await waiting()), 'the first attempt to fail and wait for its retry');
    expect(await waiting()).toEqual({ status: 'pending', attempts: 1 });
    webhook.failing(false);
    // The retry is due 1 s after the failure: the drain runs once the database says it is due.
    const due = async () =>
      (
        await sql<{ due: boolean }>(
          `SELECT next_attempt_at <= now() AS due FROM notification_deliveries WHERE lead_id = $1 AND channel = 'webhook'`,
          [id],
        )
      )[0]?.due === true;
    await until(due, 'the retry to be due');

    const run = await site.invokeScheduled('notifications-drain');
    expect(run.status).toBe(204);
    expect(deliveredTo(id).webhook).toBe(1);
    expect(await waiting()).toEqual({ status: 'sent', attempts: 2 });
  });
});
// ---------------------------------------------------------------------------
