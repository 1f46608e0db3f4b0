import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FreeSlot } from '../../src/lib/appointments/booking.ts';
import { originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { untilValue } from '../support/until.ts';
import { type FakePlatform, startFakePlatform, whatsappEnv } from '../support/whatsapp-platform.ts';

/**
 * Issue #38, item 1: quick quotes from many addresses made our number send a
 * paid template to every phone. The automatic first reply has a daily limit
 * for the whole site; the rest are held for an adviser, and the
 * administrators are told once that day. Item 2: a visitor's text is never
 * our number's words.
 */
const LIMIT = 4;
let server: RunningServer;
let platform: FakePlatform;
let smtp: SmtpReceiver;

beforeAll(async () => {
  platform = await startFakePlatform();
  smtp = await startSmtpReceiver();
  server = await startServer({
    ...whatsappEnv(platform, { WHATSAPP_FIRST_REPLY_TEMPLATE: 'primer_contacto' }),
    WHATSAPP_FIRST_REPLY_DAILY_LIMIT: String(LIMIT),
    WHATSAPP_APPOINTMENT_DAILY_LIMIT: '1',
    PLATFORM_RATE_LIMIT: '0',
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'Avisos Ceiba <avisos@ceibacasas.mx>',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
  });
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
  await smtp?.close();
});

/** untilValue with this file's bound. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000) =>
  untilValue(read, done, what, { timeoutMs });

/** A quick quote sent from `localAddress` (any 127.x.y.z is this machine): the server sees that client. */
function quoteFrom(localAddress: string, body: unknown): Promise<number> {
  const url = new URL('/api/quick-quotes', server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', localAddress, headers: { 'Content-Type': 'application/json' } },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

const automated = () =>
  sql<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM whatsapp_messages WHERE automated GROUP BY status`,
  );

describe('the automatic first reply', () => {
  it('never sends a visitor’s text: a name that is no name gets the template without the name', async () => {
    const answer = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'https://evil.example/pago-anticipo Juan', phone: '999 404 0404' }),
    );
    expect(answer.status).toBe(201);
    const [sent] = await platform.waitForSent(1, 30_000);
    expect(sent?.to).toBe('529994040404');
    expect(sent?.body.template).toEqual({ name: 'primer_contacto_sin_nombre', language: { code: 'es_MX' } });
    expect(JSON.stringify(sent?.body)).not.toMatch(/evil|pago/);
    const [row] = await sql<{ body: string }>(`SELECT body FROM whatsapp_messages WHERE automated`);
    expect(row?.body).toMatch(/^Hola, gracias por escribir a Ceiba/);
    // The team's e-mail names the contact by phone, not by what was typed as a name.
    const mail = await smtp.waitForMail((message) => message.subject?.startsWith('Nueva cotización') === true);
    expect(mail.subject).not.toMatch(/evil|https/);
    expect(mail.subject).toContain('999 404 0404');
    // No activity row for an automatic send; the contact's history has its entry.
    expect(await countRows('activity_log', `kind = 'whatsapp_template'`)).toBe(0);
    expect(await countRows('contact_events', `kind = 'whatsapp_template' AND to_value = 'Respuesta automática'`)).toBe(
      1,
    );
  }, 60_000);

  it('goes to at most the day’s limit under a flood from 10 addresses; the rest wait for an adviser, and the administrators hear once', async () => {
    await setupAdmin(server.url, 'direccion@ceiba.mx');
    const before = platform.sent.length;
    // 10 loopback addresses, 8 quick quotes each, every one a different phone.
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async (_, address) => {
        const answers: number[] = [];
        for (let index = 0; index < 8; index++) {
          const phone = `999 5${String(address).padStart(2, '0')} ${String(1000 + index)}`;
          answers.push(await quoteFrom(`127.0.0.${address + 2}`, quickQuote({ name: 'Laura Chi', phone })));
        }
        return answers;
      }),
    );
    expect(statuses.flat()).toEqual(Array(80).fill(201));
    // Every first reply ends sent or held: the limit (the first test's one included), and 80 - 3 held.
    const final = await eventually(
      automated,
      (rows) => rows.reduce((sum, row) => sum + (['sent', 'held'].includes(row.status) ? row.count : 0), 0) === 81,
      'every first reply sent or held',
    );
    expect(Object.fromEntries(final.map((row) => [row.status, row.count]))).toEqual({ sent: LIMIT, held: 81 - LIMIT });
    const templates = platform.sent.slice(before).filter((sent) => sent.type === 'template');
    expect(templates).toHaveLength(LIMIT - 1);
    expect(await countRows('whatsapp_allowance_days', `purpose = 'first_reply' AND sent = ${LIMIT}`)).toBe(1);

    // Held: visible on the message and in the contact's history, never sent later by the queue.
    const [held] = await sql<{ error_reason: string; events: string[] }>(
      `SELECT m.error_reason, array(SELECT kind FROM contact_events e WHERE e.contact_id = m.contact_id) AS events
       FROM whatsapp_messages m WHERE m.automated AND m.status = 'held' LIMIT 1`,
    );
    expect(held?.error_reason).toMatch(/límite diario.*Escríbele tú/);
    expect(held?.events).toContain('whatsapp_held');
    expect(held?.events).not.toContain('whatsapp_template');
    expect(await countRows('activity_log', `kind = 'whatsapp_template'`)).toBe(0);

    // One e-mail to the administrator that day, however many were held.
    const alert = await smtp.waitForMail((mail) => mail.subject?.startsWith('Límite diario') === true);
    expect(alert.to).toMatchObject({ text: 'direccion@ceiba.mx' });
    expect(alert.text).toContain(`ya envió ${LIMIT} respuestas automáticas`);
    await eventually(
      () =>
        countRows('graphile_worker.jobs', `task_identifier IN ('whatsapp_first_reply_limit', 'send_account_email')`),
      (count) => count === 0,
      'the account e-mails sent',
    );
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith('Límite diario'))).toHaveLength(1);
  }, 180_000);
});

describe('the appointments’ templates (decision 0068)', () => {
  it('count apart: with the first replies spent, a visit’s confirmation still goes; past their own limit the next is held, and the administrators hear once', async () => {
    // The tests above spent the day's first replies.
    expect(await countRows('whatsapp_allowance_days', `purpose = 'first_reply' AND sent = ${LIMIT}`)).toBe(1);
    const [member] = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, name) VALUES ('ana.limite@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Ana Canul') RETURNING id`,
    );
    await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [member?.id]);
    await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, 'visita-casa-muestra')`, [
      member?.id,
    ]);
    await sql(
      `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
       SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
      [member?.id],
    );
    const date = (offset: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * 86_400_000);
    const answer = await fetch(
      `${server.url}/api/appointments/slots?kind=visita-casa-muestra&place=casa-muestra-merida&from=${date(2)}&to=${date(9)}`,
    );
    const { slots } = (await answer.json()) as { slots: FreeSlot[] };
    // Two visits a day apart: no buffer of one touches the other.
    const starts = [
      slots[0],
      slots.find((slot) => Date.parse(slot.start) >= Date.parse(slots[0]?.end ?? '') + 86_400_000),
    ];
    for (const [index, slot] of starts.entries()) {
      const booked = await fetch(`${server.url}/api/appointments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
        body: JSON.stringify({
          name: 'Marta Uc',
          phone: `999 600 00${index}0`,
          kind: 'visita-casa-muestra',
          place: 'casa-muestra-merida',
          start: slot?.start,
        }),
      });
      expect(booked.status, await booked.clone().text()).toBe(201);
    }
    const confirmations = await eventually(
      () =>
        sql<{ status: string }>(
          `SELECT status FROM whatsapp_messages WHERE idempotency_key LIKE 'appt:%' AND status IN ('sent', 'held') ORDER BY status`,
        ),
      (rows) => rows.length === 2,
      'both confirmations sent or held',
    );
    expect(confirmations.map((row) => row.status)).toEqual(['held', 'sent']);
    expect(await countRows('whatsapp_allowance_days', `purpose = 'appointment' AND sent = 1`)).toBe(1);
    const alert = await smtp.waitForMail(
      (mail) => mail.subject?.startsWith('Límite diario de mensajes de citas') === true,
    );
    expect(alert.text).toContain('ya envió 1 mensajes de citas por WhatsApp');
    expect(alert.text).toContain('WHATSAPP_APPOINTMENT_DAILY_LIMIT');
  }, 120_000);
});
