import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { enqueueDelivery } from '../../src/server/notifications/queue.ts';
import { drainNotifications } from '../../src/server/notifications/worker.ts';
import { queueAccountEmail } from '../../src/server/team/account-mail.ts';
import { quickQuote } from '../support/payloads.ts';
import { type HttpReceiver, startWebhookReceiver, startWhatsappFake } from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #23, item 10: mail never holds up another channel. Each channel has
 * its own workers (the local server's, and those of Netlify's minute drain),
 * so a mail server that takes every message and never answers (each attempt
 * lasts until its 15 s timeout) leaves the webhook and WhatsApp deliveries
 * going out at once; when the mail server answers again, every e-mail is sent
 * too. Jobs queued under the single task of earlier versions still run.
 */
const SECRET = 'webhook-secret-for-isolation-0123';
const TOKEN = 'EAAG-isolation-token';
const PHONE_NUMBER_ID = '106540352242922';
const LEADS = 40;
/** How long after its answer a lead's webhook may arrive: well under one hanging e-mail (15 s). */
const PROMPT_MS = 5_000;

/**
 * A real SMTP server that, while held (as it starts, and after `hold()`),
 * keeps every message inside DATA without answering: the client waits until
 * its timeout. `open()` accepts the held messages and every one after.
 */
async function startHangingSmtp() {
  const messages: ParsedMail[] = [];
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  let waiting = 0;
  const hold = () => {
    gate = new Promise((resolve) => {
      release = resolve;
    });
  };
  hold();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(async (mail) => {
        waiting += 1;
        await gate;
        waiting -= 1;
        messages.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waiting: () => waiting,
    hold,
    open: () => release(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let smtp: Awaited<ReturnType<typeof startHangingSmtp>>;
let webhook: HttpReceiver;
let whatsapp: HttpReceiver;

const channelEnv = () => ({
  SMTP_URL: smtp.url,
  NOTIFY_EMAIL_FROM: 'Avisos Ceiba <avisos@ceibacasas.mx>',
  NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
  NOTIFY_WEBHOOK_URL: `${webhook.url}/hooks/ceiba`,
  NOTIFY_WEBHOOK_SECRET: SECRET,
  WHATSAPP_TOKEN: TOKEN,
  WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
  WHATSAPP_TEMPLATE: 'nuevo_prospecto',
  WHATSAPP_TO: '5219991234567',
  WHATSAPP_API_URL: `${whatsapp.url}/v23.0`,
  // An e-mail that timed out is tried again a second later (the production schedule starts at a minute).
  NOTIFY_RETRY_DELAYS: '1,1,1,1,1',
});

/** The delivery id each received webhook names. */
const webhookIds = () => webhook.accepted.map((request) => String(request.headers['x-ceiba-delivery']));
/** The notification id each received e-mail names (its Message-ID is `<id.purpose@…>`). */
const mailedIds = () => smtp.messages.map((mail) => String(mail.messageId).slice(1).split('.')[0]);

async function sentCount(ids: readonly string[]): Promise<number> {
  const [row] = await sql<{ count: number }>(
    `SELECT count(*)::int AS count FROM notification_deliveries WHERE status = 'sent' AND id = ANY($1::uuid[])`,
    [ids],
  );
  return row?.count ?? 0;
}

beforeAll(async () => {
  [smtp, webhook, whatsapp] = await Promise.all([
    startHangingSmtp(),
    startWebhookReceiver(SECRET),
    startWhatsappFake(TOKEN, PHONE_NUMBER_ID),
  ]);
});

afterAll(async () => {
  smtp?.open();
  await Promise.all([smtp?.close(), webhook?.close(), whatsapp?.close()]);
});

describe('the local server, with a mail server that hangs', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // 40 leads from this machine: past the function's own rateLimit (tested in platform-rate-limit).
    server = await startServer({ ...channelEnv(), PLATFORM_RATE_LIMIT: '0' });
  });
  afterAll(async () => {
    smtp.open();
    await server?.stop();
  });

  it('holds up no webhook or WhatsApp message; the e-mails go out once it answers', async () => {
    // The answer time of each lead, and when its webhook was first seen.
    const answered = new Map<string, number>();
    const arrived = new Map<string, number>();
    let whatsappDone = 0;
    const watch = setInterval(() => {
      for (const request of webhook.accepted) {
        const id = String(request.headers['x-ceiba-delivery']);
        if (!arrived.has(id)) arrived.set(id, Date.now());
      }
      if (!whatsappDone && whatsapp.accepted.length >= LEADS) whatsappDone = Date.now();
    }, 20);
    try {
      for (let index = 0; index < LEADS; index += 1) {
        const phone = `99${String(20_000_000 + index)}`;
        const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: `Prisa ${index}`, phone }));
        expect(answer.status).toBe(201);
        answered.set(((await answer.json()) as { id: string }).id, Date.now());
      }
      const lastAnswer = Math.max(...answered.values());
      // Bounded wait (a hanging e-mail lasts 15 s): long enough to measure the old behaviour too.
      await until(
        () => [...answered.keys()].every((id) => arrived.has(id)) && whatsappDone > 0,
        'every webhook and WhatsApp message',
        20_000,
      ).catch(() => {});
      const latencies = [...answered].map(([id, at]) => (arrived.get(id) ?? Number.POSITIVE_INFINITY) - at);
      const slowest = Math.max(...latencies);
      const received = latencies.filter(Number.isFinite);
      console.log(
        `${LEADS} leads (answered in ${lastAnswer - Math.min(...answered.values())} ms) with the mail server hanging: ` +
          `${received.length} webhooks arrived, the slowest ${Math.max(...received)} ms after its lead's answer, ` +
          `the last ${Math.max(...arrived.values()) - lastAnswer} ms after the last answer; ` +
          `${whatsapp.accepted.length} WhatsApp messages, ` +
          `${whatsappDone ? `the last ${whatsappDone - lastAnswer} ms after the last answer` : 'not all'}`,
      );
      expect(slowest).toBeLessThan(PROMPT_MS);
      expect(whatsappDone).toBeGreaterThan(0);
      expect(whatsappDone - lastAnswer).toBeLessThan(PROMPT_MS);
      // Meanwhile the e-mails were taken and are still held, unanswered, by the mail server.
      expect(smtp.waiting()).toBeGreaterThan(0);
      expect(smtp.messages).toHaveLength(0);
    } finally {
      clearInterval(watch);
    }

    // The mail server answers again: every lead's e-mail is delivered, none lost.
    smtp.open();
    const ids = [...answered.keys()];
    await until(
      async () =>
        (
          await sql<{ count: number }>(
            `SELECT count(*)::int AS count FROM notification_deliveries
             WHERE channel = 'email' AND status = 'sent' AND lead_id = ANY($1::uuid[])`,
            [ids],
          )
        )[0]?.count === LEADS,
      'every e-mail to be sent',
    );
    const mailed = new Set(mailedIds());
    expect(ids.filter((id) => !mailed.has(id))).toEqual([]);
    // Each channel's delivery of each lead is sent, once.
    const states = await sql<{ channel: string; status: string; count: number }>(
      `SELECT channel, status, count(*)::int AS count FROM notification_deliveries
       WHERE lead_id = ANY($1::uuid[]) GROUP BY channel, status ORDER BY channel`,
      [ids],
    );
    expect(states).toEqual([
      { channel: 'email', status: 'sent', count: LEADS },
      { channel: 'webhook', status: 'sent', count: LEADS },
      { channel: 'whatsapp', status: 'sent', count: LEADS },
    ]);
    expect(new Set(webhookIds()).size).toBe(LEADS);
  }, 60_000);

  it('a delivery queued under the single task of earlier versions is still sent, through its channel', async () => {
    const queued = await sql<{ id: string; channel: string }>(
      `INSERT INTO notification_deliveries (purpose, channel) VALUES ('test', 'email'), ('test', 'webhook')
       RETURNING id, channel`,
    );
    const ids = queued.map((row) => row.id);
    // As the earlier version queued them (a deploy with jobs still waiting).
    await sql(
      `SELECT graphile_worker.add_job('deliver_notification', json_build_object('deliveryId', id),
                                      max_attempts => 3, job_key => 'delivery:' || id)
       FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
    await until(async () => (await sentCount(ids)) === 2, 'both deliveries to be sent');
    const byChannel = Object.fromEntries(queued.map((row) => [row.channel, row.id]));
    expect(webhookIds()).toContain(byChannel.webhook);
    expect(mailedIds()).toContain(byChannel.email);
    // No job is left behind under either task.
    await until(
      async () =>
        (
          await sql(`SELECT 1 FROM graphile_worker.jobs WHERE key = ANY($1::text[])`, [
            ids.map((id) => `delivery:${id}`),
          ])
        ).length === 0,
      'the jobs to finish',
    );
  });
});

describe("Netlify's minute drain, with a mail server that hangs", () => {
  it('sends the webhooks queued behind 20 hanging e-mails at once, then the e-mails and an account e-mail', async () => {
    const config = parseConfig({ ...process.env, ...channelEnv() });
    smtp.hold();
    // Queued e-mails first: a single runner would take them before any webhook.
    const queue = (channel: 'email' | 'webhook', count: number) =>
      withDatabase(async (db) => {
        const ids: string[] = [];
        for (let index = 0; index < count; index += 1) {
          ids.push((await db.transaction((tx) => enqueueDelivery(tx, 'test', channel))) as string);
        }
        return ids;
      });
    const emails = await queue('email', 20);
    const hooks = await queue('webhook', 20);
    await withDatabase((db) =>
      queueAccountEmail(db, {
        to: 'invitada@ceiba.mx',
        subject: 'Te invitaron al panel de Ceiba',
        text: 'Acepta la invitación con este enlace.',
        link: 'https://www.ceibacasas.mx/auth/invitacion#prueba',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    const mailedBefore = smtp.messages.length;

    const started = Date.now();
    const draining = drainNotifications(10_000, config);
    let webhooksAt = 0;
    try {
      await until(() => hooks.every((id) => webhookIds().includes(id)), 'the 20 webhooks', PROMPT_MS);
      webhooksAt = Date.now() - started;
      expect(smtp.waiting()).toBeGreaterThan(0);
    } finally {
      console.log(
        `drain: 20 webhooks behind 20 hanging e-mails ${webhooksAt ? `in ${webhooksAt} ms` : 'not all sent'}`,
      );
      smtp.open();
    }
    const { processed } = await draining;
    expect(processed).toBeGreaterThanOrEqual(41);
    expect(await sentCount([...emails, ...hooks])).toBe(40);
    const mailed = new Set(mailedIds());
    expect(emails.filter((id) => !mailed.has(id))).toEqual([]);
    const invitation = smtp.messages.slice(mailedBefore).filter((mail) => JSON.stringify(mail.to).includes('invitada'));
    expect(invitation).toHaveLength(1);
  }, 40_000);
});
