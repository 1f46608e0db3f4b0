import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';
import extractZip from 'extract-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAYED_CONNECT_TIMEOUT, startNeonRelay } from '../support/neon-relay.ts';
import { startWebhookReceiver } from '../support/receivers.ts';
import { countRows } from '../support/sql.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FUNCTIONS = path.join(ROOT, 'netlify/functions');
const MB = 1024 * 1024;
const WEBHOOK_SECRET = 'bundle-webhook-secret-0123456789';
// Netlify adds its own instrumentation (~0.3 MB zipped) to every function; our budget is for what we ship.
const WITHOUT_NETLIFY_INSTRUMENTATION = { zisi_add_instrumentation_loader: false };

/**
 * Zipped size budgets. Every function carries zod and a PostgreSQL driver;
 * the lead functions and admin-notifications also carry the notification senders (nodemailer), to
 * send right after answering; the drain carries the job queue
 * (graphile-worker); the two that hash passwords carry native bcrypt.
 */
const BUDGETS: Record<string, number> = {
  'auth-login': 1.5 * MB,
  'auth-setup': 1.5 * MB,
  'quick-quotes': 1.5 * MB,
  'quote-requests': 1.5 * MB,
  'partner-applications': 1.5 * MB,
  // "Enviar prueba" and "Reintentar" send right after answering, like the lead functions.
  'admin-notifications': 1.5 * MB,
  // Invitations are e-mailed; invitations and password changes hash passwords.
  'admin-team-invitations': 1.5 * MB,
  'auth-invitation': 1.5 * MB,
  'auth-password': 1.5 * MB,
  // Both: a reset hashes the new password, a recovery link is e-mailed.
  'auth-recovery': 2 * MB,
  // Passkeys: @simplewebauthn/server and its CBOR and ASN.1 parsers.
  'auth-passkeys': 2 * MB,
  'auth-passkey-login': 2 * MB,
  // A call with a phone is notified right after the answer, like the lead functions.
  'voice-events': 1.5 * MB,
  // Stripe's official SDK (issue #41, decision 0070), about 0.5 MB zipped: the checkout and the webhook.
  payments: 1.5 * MB,
  'payments-webhook': 1.5 * MB,
  // Functions v2 are traced (nft), not bundled: graphile-worker's config loader
  // (cosmiconfig) names TypeScript, so its 3 MB travel in the zip, never loaded;
  // and the payments' jobs (a transfer cancelled at its deadline, a refund) carry Stripe's SDK.
  'notifications-drain': 4.5 * MB,
};

/** The functions tests/support/netlify-harness.ts calls, in its order. */
const HARNESS_FUNCTIONS = ['quick-quotes', 'partner-applications', 'auth-setup', 'admin-leads', 'notifications-drain'];

/** The in-source `rateLimit` as the bundler read it (its types do not list the field yet). */
const rateLimitOf = (result: { config: object } | undefined) =>
  (result?.config as { rateLimit?: unknown } | undefined)?.rateLimit;

let outDir: string;
/** Every function, zipped once as a deploy zips it (the two tests below read the same zips). */
let zipped: Awaited<ReturnType<typeof zipFunctions>>;
// A bound for a hang (decision 0054): the bundling of every function took 377 s beside another suite.
beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'casas-zisi-'));
  zipped = await zipFunctions([FUNCTIONS], path.join(outDir, 'zip'), {
    basePath: ROOT,
    featureFlags: WITHOUT_NETLIFY_INSTRUMENTATION,
  });
}, 1_200_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

// Bounds for a hang: the harness's run took over its former 60 s on a fresh clone beside a second `npm test`.
describe("the functions bundled by Netlify's own bundler (zip-it-and-ship-it)", { timeout: 360_000 }, () => {
  it('are each within their zipped size budget (1 MB unless BUDGETS says more), with their routes and rate limits read from the source', async () => {
    console.log(
      [
        'function | zipped (KB)',
        ...zipped.map((result) => `${result.name} | ${Math.round((result.size ?? 0) / 1024)}`),
      ].join('\n'),
    );
    expect(zipped).toHaveLength((await readdir(FUNCTIONS)).filter((file) => file.endsWith('.ts')).length);
    for (const result of zipped) {
      expect(result.runtimeAPIVersion, result.name).toBe(2);
      expect(result.size, result.name).toBeLessThan(BUDGETS[result.name] ?? MB);
    }
    const byName = Object.fromEntries(zipped.map((result) => [result.name, result]));
    expect(rateLimitOf(byName['quick-quotes'])).toEqual({
      windowLimit: 30,
      windowSize: 60,
      aggregateBy: ['ip', 'domain'],
    });
    expect(rateLimitOf(byName['auth-login'])).toMatchObject({ windowLimit: 20 });
  });

  it('answer real requests in a fresh Node process, on the Neon driver, as on Netlify', async () => {
    const unpacked = path.join(outDir, 'none');
    // The zips of the functions the harness calls (tests/support/netlify-harness.ts), unpacked as Netlify does.
    for (const name of HARNESS_FUNCTIONS) {
      const zip = zipped.find((result) => result.name === name)?.path;
      expect(zip, name).toBeDefined();
      await extractZip(zip as string, { dir: path.join(unpacked, name) });
    }
    const relay = await startNeonRelay();
    const webhook = await startWebhookReceiver(WEBHOOK_SECRET);
    // Asynchronously: the relay answers from this process while the child runs.
    const run = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'tests/support/netlify-harness.ts'), unpacked],
      {
        cwd: os.tmpdir(), // nothing of the repository's node_modules on the way: only the bundle's own
        env: {
          PATH: process.env.PATH,
          NETLIFY: 'true',
          DATABASE_URL: process.env.DATABASE_URL,
          NEON_WS_PROXY: relay.url,
          ...RELAYED_CONNECT_TIMEOUT,
          JWT_SECRET: 'a-production-like-secret-of-32-bytes-or-more',
          // Production builds every link it sends from it (issue #23).
          SITE_URL: 'https://www.ceibacasas.mx',
          NOTIFY_WEBHOOK_URL: `${webhook.url}/hook`,
          NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
        },
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    expect(run.stderr, run.stderr).not.toMatch(/"level":"error"/);
    const answers = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
    expect(answers.quickQuote).toMatchObject({ status: 201, body: { id: expect.any(String) } });
    expect(answers.partner).toMatchObject({ status: 201, body: { status: 'approved', score: 12 } }); // 3 + 3 + 1 + 2 + 3
    expect(answers.setup.status).toBe(201);
    expect(answers.list).toMatchObject({ status: 200, body: { total: 1 } });
    expect(answers.list.body.items[0]).toMatchObject({ name: 'Desde el paquete', phone: '+529991234567' });
    expect(answers.refused.status).toBe(401);
    expect(await countRows('partner_applications', "name = 'Socio del paquete'")).toBe(1);
    // Each lead's notification left right after its answer (waitUntil), signed, once;
    // the scheduled drain, bundled with graphile-worker, found nothing left to send.
    expect(answers.afterAnswers).toBe(2);
    const leadIds = [answers.quickQuote.body.id, answers.partner.body.id];
    expect(webhook.accepted.map((request) => request.headers['x-ceiba-delivery']).sort()).toEqual(leadIds.sort());
    expect(answers.drain.status).toBe(204);
    expect(await countRows('notification_deliveries', `status = 'sent'`)).toBe(2);
    await webhook.close();
    // One JSON log line per call, from the bundled code.
    expect(run.stdout).toMatch(/"function":"quick-quotes","method":"POST","path":"\/api\/quick-quotes","status":201/);
  });
});
