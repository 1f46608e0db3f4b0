import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { enqueueDelivery } from '../../src/server/outbox/queue.ts';
import { drainJobs } from '../../src/server/tasks.ts';
import { queueAccountEmail } from '../../src/server/team/account-mail.ts';
import { quickQuote } from '../support/payloads.ts';
import {
  type HeldSmtpReceiver,
  type HttpReceiver,
  startHeldSmtpReceiver,
  startWebhookReceiver,
  startWhatsappFake,
} from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';
import { until } from '../support/until.ts';

/**
 * Issue #23, item 10: mail never holds up another channel. Each channel has
 * its own workers (the local server's, and those of Netlify's minute drain),
 * so a mail server that takes every message and never answers (each attempt
 * lasts until its socket timeout) leaves the webhook and WhatsApp deliveries
 * going out at once; when the mail server answers again, every e-mail is sent
 * too. Jobs queued under the single task of earlier versions still run.
 */
const SECRET = 'webhook-secret-for-isolation-0123';
const TOKEN = 'EAAG-isolation-token';
const PHONE_NUMBER_ID = '106540352242922';
const LEADS = 40;

let smtp: HeldSmtpReceiver;
let webhook: HttpReceiver;
let whatsapp: HttpReceiver;

const channelEnv = () => ({
  // Every send ends at its deadline (sendDeadlineMs, deliver.ts: 15 s at most), whatever the SMTP server does;
  // nodemailer's own socket timeout is set past it here (the SMTP URL's options win), so a held e-mail attempt
  // ends at that deadline and at nothing sooner. The stories below hold e-mails and check that the other
  // channels went out before any attempt ended: each keeps what it waits for well inside those 15 s.
  SMTP_URL: `${smtp.url}/?socketTimeout=120000`,
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
    startHeldSmtpReceiver({ held: true }),
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
    // All at once: one after the other, beside a second `npm test`, the last lead came more than 15 s after the
    // first, whose e-mail attempt had ended by then (its deadline), isolation or not.
    const answers = await Promise.all(
      Array.from({ length: LEADS }, (_, index) =>
        postJson(
          `${server.url}/api/quick-quotes`,
          quickQuote({ name: `Prisa ${index}`, phone: `99${String(20_000_000 + index)}` }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(LEADS).fill(201));
    const ids = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: string }).id));
    try {
      await isolated(ids);
    } finally {
      // Whatever happened above, the mail server answers again: the stories after this one need it.
      smtp.open();
    }
  });

  /** The webhooks and WhatsApp messages of `ids` went out while their e-mails were held; then the e-mails did. */
  async function isolated(ids: string[]): Promise<void> {
    await until(
      () => ids.every((id) => webhookIds().includes(id)) && whatsapp.accepted.length >= LEADS,
      'every webhook and WhatsApp message',
      60_000,
    );
    // They went out before any e-mail attempt ended: behind hanging e-mails they would have waited
    // for those to reach their deadline, and those attempts would be on record as failed.
    const [ended] = await sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM notification_deliveries
       WHERE channel = 'email' AND last_error IS NOT NULL AND lead_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(ended?.count).toBe(0);
    // Meanwhile the e-mails are taken, and held unanswered by the mail server.
    await until(() => smtp.waiting() > 0, 'the e-mails to reach the held mail server');
    expect(smtp.messages).toHaveLength(0);

    // The mail server answers again: every lead's e-mail is delivered, none lost.
    smtp.open();
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
  }

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

    const draining = drainJobs(10_000, config);
    try {
      await until(() => hooks.every((id) => webhookIds().includes(id)), 'the 20 webhooks');
      // Sent while every e-mail attempt was still held: none had ended (timed out) before them.
      const [ended] = await sql<{ count: number }>(
        `SELECT count(*)::int AS count FROM notification_deliveries
         WHERE last_error IS NOT NULL AND id = ANY($1::uuid[])`,
        [emails],
      );
      expect(ended?.count).toBe(0);
    } finally {
      smtp.open();
    }
    const { processed } = await draining;
    expect(processed).toBeGreaterThanOrEqual(41);
    expect(await sentCount([...emails, ...hooks])).toBe(40);
    const mailed = new Set(mailedIds());
    expect(emails.filter((id) => !mailed.has(id))).toEqual([]);
    const invitation = smtp.messages.slice(mailedBefore).filter((mail) => JSON.stringify(mail.to).includes('invitada'));
    expect(invitation).toHaveLength(1);
  });
});
