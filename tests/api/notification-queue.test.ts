import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { CONCURRENCY } from '../../src/server/jobs/pool.ts';
import { FRESH_BATCH, FRESH_KEY_PREFIX, TASK_PREFIX } from '../../src/server/outbox/queue.ts';
import { maintainJobs } from '../../src/server/tasks.ts';
import { quickQuote } from '../support/payloads.ts';
import { type HttpReceiver, type SmtpReceiver, startSmtpReceiver, startWebhookReceiver } from '../support/receivers.ts';
import { postJson, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #25, decision 0045: a lead's deliveries are sent by their channel's
 * one fresh job, not by a job each, so a burst of leads leaves the queue
 * short (every runner searches it); nothing is sent twice or forgotten.
 */
const SECRET = 'webhook-secret-for-queue-tests-012345';
let webhook: HttpReceiver;
let smtp: SmtpReceiver;

const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const channelsEnv = () => ({
  NOTIFY_WEBHOOK_URL: `${webhook.url}/hook`,
  NOTIFY_WEBHOOK_SECRET: SECRET,
  SMTP_URL: smtp.url,
  NOTIFY_EMAIL_FROM: 'avisos@ceibacasas.mx',
  NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
});

beforeAll(async () => {
  [webhook, smtp] = await Promise.all([startWebhookReceiver(SECRET), startSmtpReceiver()]);
});
afterAll(async () => {
  await Promise.all([webhook?.close(), smtp?.close()]);
});

describe('a burst of leads with two channels on', () => {
  it('leaves a job or two per channel in the queue, sends at most a batch at once, and each notification once', async () => {
    webhook.delay(200);
    onTestFinished(() => webhook.delay(0));
    const server = await startServer({ ...channelsEnv(), PLATFORM_RATE_LIMIT: '0' });
    onTestFinished(() => server.stop().then(() => undefined));
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() })),
      ),
    );
    const bad = answers.find((answer) => answer.status !== 201);
    expect(bad && `${bad.status} ${await bad.text()}`).toBeUndefined();
    const ids = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: string }).id));

    // Forty leads' eighty deliveries wait (the webhook takes 200 ms each, eight at a time): one job
    // per delivery would be forty per channel. A channel's fresh jobs are its one waiting job and those its
    // runner's slots are running, each with a batch: however the answers and the wakes interleave (a loaded
    // machine spreads them, and more batches start meanwhile), never more than the slots and one.
    const jobs = await sql<{ task: string; count: number }>(
      `SELECT task_identifier AS task, count(*)::int AS count FROM graphile_worker.jobs
       WHERE task_identifier LIKE $1 || '%' GROUP BY 1`,
      [TASK_PREFIX],
    );
    for (const { count } of jobs) expect(count).toBeLessThanOrEqual(CONCURRENCY + 1);

    await webhook.waitFor(40, 60_000);
    // Forty leads' e-mails, and the daily summary (the server started after 8:00 in Mérida, or not).
    const leadMails = () => smtp.messages.filter((mail) => !mail.subject?.startsWith('Resumen'));
    await expect.poll(() => leadMails().length).toBeGreaterThanOrEqual(40);
    await expect
      .poll(() => countRows('notification_deliveries', `status = 'sent' AND lead_id = ANY($1::uuid[])`, [ids]))
      .toBe(80);
    const delivered = webhook.accepted.map((request) => String(request.headers['x-ceiba-delivery']));
    expect(new Set(delivered).size).toBe(40);
    expect(delivered).toHaveLength(40);
    expect(leadMails()).toHaveLength(40);
    expect(webhook.mostAtOnce()).toBeLessThanOrEqual(FRESH_BATCH);
    // Drained: what is left in the queue is no channel's work.
    await expect
      .poll(() =>
        countRows('graphile_worker.jobs', `task_identifier LIKE $1 || '%' AND locked_at IS NULL`, [TASK_PREFIX]),
      )
      .toBe(0);
  }, 90_000);
});

describe('the queue’s upkeep', () => {
  it('wakes the fresh job of a channel whose lead’s delivery waits without it, once it has waited 10 s', async () => {
    const server = await startServer();
    const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() }));
    await server.stop();
    const { id: leadId } = (await answer.json()) as { id: string };
    // As if the process had died between storing the lead and waking its channel's job.
    const [delivery] = await sql<{ id: string }>(
      `INSERT INTO notification_deliveries (purpose, channel, lead_kind, lead_id, contact_id, updated_at)
       SELECT 'lead', 'webhook', 'quick-quotes', id, contact_id, now() - interval '3 seconds'
       FROM cotizaciones_rapidas WHERE id = $1 RETURNING id`,
      [leadId],
    );
    const config = parseConfig({ ...process.env, ...channelsEnv() });
    const woken = () => countRows('graphile_worker.jobs', 'key = $1', [`${FRESH_KEY_PREFIX}webhook`]);
    // Whatever an earlier story left: this one starts with no fresh job and no other delivery waiting.
    await sql(`SELECT graphile_worker.remove_job($1)`, [`${FRESH_KEY_PREFIX}webhook`]);
    await sql(`DELETE FROM notification_deliveries WHERE id <> $1`, [delivery?.id]);

    await withDatabase((db) => maintainJobs(db, config));
    expect(await woken()).toBe(0);

    await sql(`UPDATE notification_deliveries SET updated_at = now() - interval '11 seconds' WHERE id = $1`, [
      delivery?.id,
    ]);
    await withDatabase((db) => maintainJobs(db, config));
    expect(await woken()).toBe(1);
    // Its channel's job, not one of its own.
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`delivery:${delivery?.id}`])).toBe(0);
  });
});
