import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHATSAPP_NOTICE } from '../../src/data/whatsapp-notice.ts';
import { questionsOf } from '../../src/lib/forms/definition.ts';
import { quickQuoteForm } from '../../src/lib/forms/quick-quote.ts';
import { parseConfig } from '../../src/server/config.ts';
import { inviteAdviser, setupAdmin } from '../support/admin.ts';
import { preFilter, quickQuote } from '../support/payloads.ts';
import { type HeldSmtpReceiver, startHeldSmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { untilValue } from '../support/until.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';

/** Issue #27, item 4: the instant first reply; and item 1's e-mail to the adviser. */
let server: RunningServer;
let platform: FakePlatform;
let smtp: HeldSmtpReceiver;

beforeAll(async () => {
  platform = await startFakePlatform();
  smtp = await startHeldSmtpReceiver();
  server = await startServer({
    ...whatsappEnv(platform, { WHATSAPP_FIRST_REPLY_TEMPLATE: 'primer_contacto' }),
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

/** untilValue with this file's bound and the server’s log. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) =>
  untilValue(read, done, what, {
    timeoutMs,
    context: () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('level":"error') || line.includes('level":"warn'))
        .join('\n')
        .slice(0, 4000),
  });

const lead = (body: unknown, path = '/api/quick-quotes') =>
  postJson(`${server.url}${path}`, body, { 'Idempotency-Key': randomUUID() });

describe('the instant first reply', () => {
  it('is the notice the quick quote shows by its phone, and the variable names a configured template', () => {
    const phone = questionsOf(quickQuoteForm).find((question) => question.name === 'phone');
    expect(phone?.hint).toBe(WHATSAPP_NOTICE.text);
    expect(() => parseConfig({ ...whatsappEnv(platform), WHATSAPP_FIRST_REPLY_TEMPLATE: 'no_existe' })).toThrow(
      /not in src\/lib\/whatsapp\/templates.ts/,
    );
  });

  it('goes once to a new lead with a phone, even for 10 leads of one phone at once, with the template filled in', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => lead(quickQuote({ name: 'Fernanda Aké Dzib', phone: '999 400 1000' }))),
    );
    expect(
      answers.map((answer) => answer.status),
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":"error"'))
        .join('\n'),
    ).toEqual(Array(10).fill(201));
    const sent = await eventually(
      async () => platform.sent.filter((request) => request.to === '529994001000'),
      (list) => list.length >= 1,
      'the first reply',
      // "Within a minute": its job comes right after the answer, or from the queue's upkeep (every 30 s) if that was lost.
      50_000,
    );
    await eventually(
      () => sql<{ status: string }>(`SELECT status FROM whatsapp_messages WHERE automated`),
      (rows) => rows.length === 1 && rows[0]?.status === 'sent',
      'the first reply sent',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.template).toEqual({
      name: 'primer_contacto',
      language: { code: 'es_MX' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Fernanda' }] }],
    });
    const [row] = await sql<{ body: string; idempotency_key: string; version: string }>(
      `SELECT m.body, m.idempotency_key,
              (SELECT whatsapp_notice_version FROM cotizaciones_rapidas l WHERE l.contact_id = m.contact_id LIMIT 1) AS version
       FROM whatsapp_messages m WHERE m.automated`,
    );
    expect(row?.body).toMatch(/^Hola Fernanda, gracias por escribir a Ceiba/);
    expect(row?.version).toBe(WHATSAPP_NOTICE.version);
    // The contact's history has it; the activity log has no row for an automatic send (issue #38).
    expect(await countRows('contact_events', `kind = 'whatsapp_template' AND to_value = 'Respuesta automática'`)).toBe(
      1,
    );
    expect(await countRows('activity_log', `kind = 'whatsapp_template'`)).toBe(0);
    expect(await countRows('cotizaciones_rapidas', `phone = '+529994001000'`)).toBe(10);
    // A later lead of the same person: no second first reply.
    await lead(quickQuote({ name: 'Fernanda Aké', phone: '9994001000' }));
    expect(await countRows('whatsapp_messages', 'automated')).toBe(1);
  });

  it('never goes to a contact who opted out, nor where the form did not say we write by WhatsApp', async () => {
    await postWebhook(server.url, inboundPayload({ from: '5219994002000', name: 'Rubén', content: { body: 'Baja' } }));
    await eventually(
      () => countRows('whatsapp_conversations', 'opted_out_at IS NOT NULL'),
      (count) => count === 1,
      'the opt-out',
    );
    expect((await lead(quickQuote({ name: 'Rubén Cen', phone: '999 400 2000' }))).status).toBe(201);
    expect((await lead(preFilter({ phone: '999 400 3000' }), '/api/quote-requests')).status).toBe(201);
    const [prefilter] = await sql<{ whatsapp_notice_version: string | null }>(
      `SELECT whatsapp_notice_version FROM quote_requests WHERE phone = '+529994003000'`,
    );
    expect(prefilter?.whatsapp_notice_version).toBeNull();
    // Both leads are stored and answered; neither contact has a message of ours.
    expect(
      await countRows(
        'whatsapp_messages m JOIN contacts c ON c.id = m.contact_id',
        `m.direction = 'out' AND c.phone IN ('+529994002000', '+529994003000')`,
      ),
    ).toBe(0);
  });
});

describe('their message tells the adviser', () => {
  /** The administrator's session, who invites each story's adviser. */
  let admin: string;
  beforeAll(async () => {
    admin = await setupAdmin(server.url);
  });

  it('e-mails the adviser who follows the contact, with the message and the link to the conversation', async () => {
    const adviser = await inviteAdviser(server.url, admin, 'jorge@ceiba.mx', 'Jorge May');
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer, assigned_to) VALUES ('+529994004000', 'Teresa Mex', true, $1) RETURNING id`,
      [adviser.id],
    );
    expect(contact).toBeDefined();
    await postWebhook(
      server.url,
      inboundPayload({ from: '5219994004000', content: { body: '¿Siguen las casas de 2 recámaras?' } }),
    );
    const mail = await smtp.waitForMail((message) => message.subject?.startsWith('Teresa Mex te escribió') === true);
    expect(mail.to).toMatchObject({ text: 'jorge@ceiba.mx' });
    expect(mail.text).toContain('¿Siguen las casas de 2 recámaras?');
    expect(mail.text).toContain(`/admin/prospecto?id=${contact?.id}`);
  });

  it('is never lost: a message stored only with its e-mail queued, the event processed again after a failure', async () => {
    const adviser = await inviteAdviser(server.url, admin, 'lucia@ceiba.mx', 'Lucía Pech');
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, assigned_to) VALUES ('+529994005000', 'Ramón Ek', true, $1)`,
      [adviser.id],
    );
    // The e-mail's delivery refused while the trigger stands; the sequence counts the refusals (it is not rolled back).
    await sql('CREATE SEQUENCE refused_message_notices');
    await sql(`CREATE FUNCTION refuse_message_notice() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN IF NEW.purpose = 'message' THEN PERFORM nextval('refused_message_notices');
               RAISE EXCEPTION 'message notice refused (test)'; END IF; RETURN NEW; END $$`);
    await sql(`CREATE TRIGGER refuse_message_notice BEFORE INSERT ON notification_deliveries
               FOR EACH ROW EXECUTE FUNCTION refuse_message_notice()`);
    const body = '¿Puedo visitar la casa muestra el sábado?';
    try {
      await postWebhook(server.url, inboundPayload({ from: '5219994005000', content: { body } }));
      await eventually(
        async () => (await sql<{ is_called: boolean }>('SELECT is_called FROM refused_message_notices'))[0]?.is_called,
        (refused) => refused === true,
        'the e-mail refused once',
      );
    } finally {
      await sql('DROP TRIGGER refuse_message_notice ON notification_deliveries');
      await sql('DROP FUNCTION refuse_message_notice()');
    }
    // The event is processed again: the message stored once, and its e-mail sent.
    const mail = await smtp.waitForMail((message) => message.subject?.startsWith('Ramón Ek te escribió') === true);
    expect(mail.to).toMatchObject({ text: 'lucia@ceiba.mx' });
    expect(mail.text).toContain(body);
    expect(await countRows('whatsapp_messages', `body = '${body}'`)).toBe(1);
  });

  it('is never forgotten: a message stored while the e-mail of the one before is being sent gets an e-mail too', async () => {
    const adviser = await inviteAdviser(server.url, admin, 'rosa@ceiba.mx', 'Rosa Uc');
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, assigned_to) VALUES ('+529994006000', 'Elena Dzib', true, $1)`,
      [adviser.id],
    );
    const fromElena = (mail: ParsedMail) => mail.subject?.startsWith('Elena Dzib te escribió') === true;
    // The mail server keeps the first e-mail inside DATA: its delivery is `sending`, its text written.
    smtp.hold();
    try {
      await postWebhook(
        server.url,
        inboundPayload({ from: '5219994006000', content: { body: 'Hola, vi el anuncio.' } }),
      );
      await eventually(
        async () => smtp.held().filter(fromElena).length,
        (held) => held === 1,
        'the first e-mail inside DATA',
      );
      const later = '¿Tienen financiamiento con Infonavit?';
      await postWebhook(server.url, inboundPayload({ from: '5219994006000', content: { body: later } }));
      await eventually(
        () => countRows('whatsapp_messages', `body = '${later}'`),
        (stored) => stored === 1,
        'the second message stored',
      );
      smtp.open();
      // The first e-mail told of the first message only; the second message has an e-mail of its own.
      const second = await smtp.waitForMail((mail) => fromElena(mail) && mail.text?.includes(later) === true);
      expect(second.to).toMatchObject({ text: 'rosa@ceiba.mx' });
    } finally {
      smtp.open();
    }
  });
});
