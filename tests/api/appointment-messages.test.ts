import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import type { BookingAnswer, FreeSlot } from '../../src/lib/appointments/booking.ts';
import { type AppointmentChange, appointmentChanged } from '../../src/server/appointments/changes.ts';
import { manageToken, readManageToken } from '../../src/server/appointments/link.ts';
import { originOf } from '../support/admin.ts';
import { seedMemberGiving } from '../support/advisers.ts';
import { type PushService, startPushService } from '../support/push-service.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';
import { type FakePlatform, type SentRequest, startFakePlatform, whatsappEnv } from '../support/whatsapp-platform.ts';

/**
 * Issue #40, parts 4 and 5 (decision 0060): what the buyer and the adviser
 * receive. A booking through POST /api/appointments sends the buyer a
 * WhatsApp template (the fake Cloud API) and an e-mail with its calendar file
 * (a real SMTP server), tells the adviser (e-mail and Web Push, a fake push
 * service), and queues the reminders at their minute; a reminder's time is
 * made to come by moving its job's run_at, never by waiting. A move and a
 * cancellation are simulated as the manage endpoint will make them: the row
 * updated and appointmentChanged() called in one transaction.
 */

let server: RunningServer;
let platform: FakePlatform;
let smtp: SmtpReceiver;
let push: PushService;
let ana: string;
let device: ReturnType<PushService['device']>;
const vapid = webpush.generateVAPIDKeys();
const SITE = 'https://www.ceibacasas.mx';
const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';
const HOUR = 3_600_000;

beforeAll(async () => {
  [platform, smtp, push] = await Promise.all([startFakePlatform(), startSmtpReceiver(), startPushService()]);
  server = await startServer({
    ...whatsappEnv(platform),
    PLATFORM_RATE_LIMIT: '0',
    LEAD_RATE_LIMIT: '1000',
    SITE_URL: SITE,
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'Avisos Ceiba <avisos@ceibacasas.mx>',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:avisos@ceibacasas.mx',
    NODE_EXTRA_CA_CERTS: push.caFile,
    PUSH_TEST_SERVICE_URL: push.url,
  });
  const [member] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ('ana.citas@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Ana Canul') RETURNING id`,
  );
  ana = member?.id ?? '';
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [ana]);
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, $2)`, [ana, VISIT]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [ana],
  );
  device = push.device();
  await sql(`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)`, [
    ana,
    device.endpoint,
    device.keys.p256dh,
    device.keys.auth,
  ]);
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([platform?.close(), smtp?.close(), push?.close()]);
});

/** Free visit slots starting at least `hoursAhead` from now, each 3 h clear of the one before. */
async function slotsAhead(hoursAhead: number, count: number): Promise<FreeSlot[]> {
  const date = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * 86_400_000);
  const response = await fetch(
    `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${date(0)}&to=${date(25)}`,
  );
  const { slots } = (await response.json()) as { slots: FreeSlot[] };
  const picked: FreeSlot[] = [];
  for (const slot of slots) {
    if (Date.parse(slot.start) < Date.now() + hoursAhead * HOUR) continue;
    const last = picked.at(-1);
    if (!last || Date.parse(slot.start) >= Date.parse(last.end) + 3 * HOUR) picked.push(slot);
    if (picked.length === count) return picked;
  }
  throw new Error(`only ${picked.length} slots`);
}

const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function book(start: string, who: { name: string; phone: string; email?: string }): Promise<BookingAnswer> {
  const response = await fetch(`${server.url}/api/appointments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({ ...who, kind: VISIT, place: MERIDA, start }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as BookingAnswer;
}

/** Runs `work` in a transaction of its own, as the manage endpoint and the panel will. */
async function inTransaction(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    await client.end();
  }
}

/** Moves or cancels appointment `id` as the other slices do: the row, then appointmentChanged(), one transaction. */
async function change(id: string, update: string, values: unknown[], what: AppointmentChange): Promise<void> {
  await inTransaction(async (client) => {
    await client.query(update, [id, ...values]);
    await appointmentChanged(client, id, what, { by: 'buyer' });
  });
}

const moveTo = (id: string, slot: FreeSlot, previousStart: number) =>
  change(
    id,
    `UPDATE appointments SET starts_at = $2, ends_at = $3, blocked = tstzrange($2::timestamptz - interval '15 minutes',
       $3::timestamptz + interval '15 minutes'), updated_at = now() WHERE id = $1`,
    [slot.start, slot.end],
    { kind: 'rescheduled', previousStart },
  );

interface Job {
  key: string;
  run_at: Date;
  payload: { to: string; channel: string; message: string; start: number; hoursBefore?: number };
}

const jobsOf = (id: string) =>
  sql<Job>(
    // The view graphile_worker.jobs has no payload: its table has.
    `SELECT key, run_at, payload FROM graphile_worker._private_jobs WHERE key LIKE $1 ORDER BY run_at, key`,
    [`appt:${id}:%`],
  );

/** The reminder's job comes due now: its time is made to come, nobody waits for it. */
async function runNow(key: string): Promise<void> {
  await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [key]);
  await until(async () => (await countRows('graphile_worker.jobs', 'key = $1', [key])) === 0, `the job ${key} to run`);
}

/** The reminder templates stored for the appointment's contact (sent or on their way). */
const remindersStored = (id: string) =>
  countRows(
    'whatsapp_messages',
    `template_name LIKE 'cita_recordatorio%' AND contact_id = (SELECT contact_id FROM appointments WHERE id = $1)`,
    [id],
  );

const templatesTo = (phone: string, name?: string) =>
  platform.sent.filter(
    (request: SentRequest) =>
      request.to === `52${phone}` &&
      (name === undefined || (request.body.template as { name?: string } | undefined)?.name === name),
  );

async function templateTo(phone: string, name: string): Promise<string[]> {
  await until(() => templatesTo(phone, name).length > 0, `the template ${name}`);
  const template = templatesTo(phone, name)[0]?.body.template as {
    components: { parameters: { text: string }[] }[];
  };
  return template.components[0]?.parameters.map((parameter) => parameter.text) ?? [];
}

/** The calendar file's properties (RFC 5545: lines unfolded), each name to its value. */
function calendarOf(mail: ParsedMail): Record<string, string> {
  const file = mail.attachments.find((attachment) => attachment.filename === 'cita.ics');
  if (!file) throw new Error(`no cita.ics in «${mail.subject}»`);
  expect(file.contentType).toBe('text/calendar');
  const text = file.content.toString('utf8').replace(/\r\n[ \t]/g, '');
  const properties: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const match = /^([A-Z-]+)(?:;[^:]*)?:(.*)$/.exec(line);
    if (match && !((match[1] as string) in properties)) properties[match[1] as string] = match[2] as string;
  }
  return properties;
}

const mailTo = (address: string, subject: string) =>
  smtp.waitForMail(
    (mail) =>
      mail.subject?.startsWith(subject) === true &&
      (mail.to && !Array.isArray(mail.to) ? mail.to.value.some((entry) => entry.address === address) : false),
  );

const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('a booking', () => {
  it('sends the buyer a WhatsApp template and an e-mail with its calendar file, and tells the adviser', async () => {
    const [slot] = await slotsAhead(30, 1);
    const phone = uniquePhone();
    const email = `comprador.${phone}@example.com`;
    const booked = await book(slot?.start as string, { name: 'María José Pech', phone, email });

    // WhatsApp: the approved template, the name reduced to a first name, the place's clock, the link.
    const parameters = await templateTo(phone, 'cita_confirmada');
    expect(parameters.slice(0, 4)).toEqual([
      'María',
      'Visita a la casa muestra',
      expect.stringMatching(/\d{4}, \d{2}:\d{2} \(hora de Mérida\)$/),
      'Casa muestra Mérida',
    ]);
    const link = parameters[4] as string;
    expect(link).toMatch(/^https:\/\/www\.ceibacasas\.mx\/cita\?t=[\w-]{48}$/);
    const token = new URL(link).searchParams.get('t') as string;
    expect(readManageToken(token, Date.now())).toEqual({ ok: true, appointmentId: booked.id });
    // …and its expiry is a day after the start, not before.
    expect(readManageToken(token, Date.parse(booked.start) + 23 * HOUR).ok).toBe(true);
    expect(readManageToken(token, Date.parse(booked.start) + 25 * HOUR)).toEqual({ ok: false, reason: 'expired' });

    // E-mail: the calendar file, parseable, its instants in UTC, the same link.
    const mail = await mailTo(email, 'Tu cita quedó agendada');
    expect(mail.text).toContain('Hola María, tu cita quedó agendada.');
    expect(mail.text).toContain(`Para cambiarla o cancelarla: ${link}`);
    const calendar = calendarOf(mail);
    expect(calendar).toMatchObject({
      METHOD: 'REQUEST',
      UID: `cita-${booked.id}@www.ceibacasas.mx`,
      SEQUENCE: '0',
      DTSTART: icsTime(booked.start),
      DTEND: icsTime(booked.end),
      STATUS: 'CONFIRMED',
      LOCATION: 'Casa muestra Mérida',
      URL: link,
    });
    expect(calendar.DTSTART).toMatch(/^\d{8}T\d{6}Z$/);
    expect(calendar.ORGANIZER).toBe('MAILTO:hola@ceibacasas.mx');

    // The adviser: an e-mail and a push to their device.
    const notice = await mailTo('ana.citas@ceiba.mx', 'Nueva cita: Visita a la casa muestra con María José Pech');
    expect(notice.text).toContain(`${SITE}/admin/prospecto?id=`);
    await until(
      () => push.requests.some((request) => request.path === new URL(device.endpoint).pathname),
      'the adviser’s push',
    );
    const pushed = push.requests
      .filter((request) => request.path === new URL(device.endpoint).pathname)
      .map((request) => JSON.parse(device.decrypt(request.body)) as { title: string; tag: string });
    expect(pushed).toContainEqual(
      expect.objectContaining({
        title: 'Nueva cita: Visita a la casa muestra con María José Pech',
        tag: `cita-${booked.id}`,
      }),
    );

    // The contact's history: the template and the e-mail, each a line.
    const [contact] = await sql<{ contact_id: string }>('SELECT contact_id FROM appointments WHERE id = $1', [
      booked.id,
    ]);
    await until(
      async () =>
        (await countRows(
          'contact_events',
          `contact_id = $1 AND kind = 'appointment_message' AND to_value = 'enviado' AND from_value = 'Confirmación de la cita por correo'`,
          [contact?.contact_id],
        )) === 1,
      'the e-mail on the history',
    );
    expect(
      await countRows(
        'contact_events',
        `contact_id = $1 AND kind = 'whatsapp_template' AND to_value = 'Confirmación de la cita'`,
        [contact?.contact_id],
      ),
    ).toBe(1);
    await until(
      async () =>
        (await countRows('whatsapp_messages', `contact_id = $1 AND automated AND status = 'sent'`, [
          contact?.contact_id,
        ])) === 1,
      'the template sent in the conversation',
    );
  });

  it('queues the reminders at their minute: the buyer’s 24 h and 2 h before, the adviser’s 1 h before', async () => {
    const [slot] = await slotsAhead(30, 1);
    const booked = await book(slot?.start as string, { name: 'Raúl Canché', phone: uniquePhone() });
    const start = Date.parse(booked.start);
    const reminders = (await jobsOf(booked.id)).filter((job) => job.payload.message === 'reminder');
    expect(
      reminders.map((job) => [job.payload.to, job.payload.channel, job.payload.hoursBefore, job.run_at.getTime()]),
    ).toEqual(
      expect.arrayContaining([
        ['buyer', 'whatsapp', 24, start - 24 * HOUR],
        ['buyer', 'email', 24, start - 24 * HOUR],
        ['buyer', 'whatsapp', 2, start - 2 * HOUR],
        ['buyer', 'email', 2, start - 2 * HOUR],
        ['adviser', 'email', 1, start - HOUR],
        ['adviser', 'push', 1, start - HOUR],
      ]),
    );
    expect(reminders).toHaveLength(6);

    // Its time comes: the reminder template leaves, with the same link.
    const whatsapp24 = reminders.find((job) => job.payload.channel === 'whatsapp' && job.payload.hoursBefore === 24);
    await runNow(whatsapp24?.key as string);
    const phone = (
      await sql<{ phone: string }>(
        'SELECT c.phone FROM contacts c JOIN appointments a ON a.contact_id = c.id WHERE a.id = $1',
        [booked.id],
      )
    )[0]?.phone.replace(/^\+52/, '') as string;
    const parameters = await templateTo(phone, 'cita_recordatorio');
    expect(parameters[0]).toBe('Raúl');
    expect(parameters[4]).toMatch(/\/cita\?t=/);
    // The 2-hour one falls at the visit's cutoff, where that page refuses any change: it links the chat with the
    // team, whenever its job runs.
    const whatsapp2 = reminders.find((job) => job.payload.channel === 'whatsapp' && job.payload.hoursBefore === 2);
    await runNow(whatsapp2?.key as string);
    await until(() => templatesTo(phone, 'cita_recordatorio').length > 1, 'the 2-hour reminder');
    const last = templatesTo(phone, 'cita_recordatorio')[1]?.body.template as {
      components: { parameters: { text: string }[] }[];
    };
    expect(last.components[0]?.parameters[4]?.text).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    // The adviser's reminder, by e-mail.
    const adviser = reminders.find((job) => job.payload.to === 'adviser' && job.payload.channel === 'email');
    await runNow(adviser?.key as string);
    await mailTo('ana.citas@ceiba.mx', 'En 1 hora: Visita a la casa muestra con Raúl Canché');
  });

  it('tries the adviser’s push again when the push service is out, until it is through', async () => {
    const [slot] = await slotsAhead(40, 1);
    const booked = await book(slot?.start as string, { name: 'Rosa Kú', phone: uniquePhone() });
    const tag = `cita-${booked.id}`;
    const reminderPushes = () =>
      push.requests
        .filter((request) => request.path === new URL(device.endpoint).pathname)
        .map((request) => ({
          ...(JSON.parse(device.decrypt(request.body)) as { title: string; tag: string }),
          request,
        }))
        .filter((sent) => sent.tag === tag && sent.title.startsWith('En 1 hora'))
        .map((sent) => sent.request.status);
    const reminder = (await jobsOf(booked.id)).find(
      (job) => job.payload.message === 'reminder' && job.payload.to === 'adviser' && job.payload.channel === 'push',
    );
    push.down(device.endpoint, true);
    try {
      // Its time comes (runNow would wait for the job to end: this one fails first).
      await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1`, [reminder?.key]);
      await until(() => reminderPushes().includes(503), 'the push refused by the service');
    } finally {
      push.down(device.endpoint, false);
    }
    // The queue's next try reaches the device.
    await until(() => reminderPushes().includes(201), 'the push sent again');
  });

  it('booked 3 h ahead, sends no reminder for 24 h before (its time has passed), only the one for 2 h', async () => {
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (name, phone, is_buyer) VALUES ('Lupita Chan', $1, true) RETURNING id`,
      [`+52${uniquePhone()}`],
    );
    const start = Math.ceil((Date.now() + 3 * HOUR) / 60_000) * 60_000;
    let id = '';
    await inTransaction(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
         VALUES ($1, $2, $3, $4, to_timestamp($5 / 1000.0), to_timestamp($6 / 1000.0),
                 tstzrange(to_timestamp($5 / 1000.0), to_timestamp($6 / 1000.0)), 'confirmada', 'panel') RETURNING id`,
        [contact?.id, VISIT, MERIDA, ana, start, start + HOUR],
      );
      id = rows[0]?.id as string;
      await appointmentChanged(client, id, { kind: 'booked' }, { by: 'member', memberId: ana });
    });
    const reminders = (await jobsOf(id)).filter((job) => job.payload.message === 'reminder');
    expect(reminders.map((job) => [job.payload.to, job.payload.hoursBefore]).sort()).toEqual([
      ['adviser', 1],
      ['adviser', 1],
      ['buyer', 2],
      ['buyer', 2],
    ]);
    // Booked by its own adviser from the panel: no notice to them of what they just did.
    expect(
      (await jobsOf(id)).filter((job) => job.payload.to === 'adviser' && job.payload.message !== 'reminder'),
    ).toEqual([]);
  });
});

describe('a move and a cancellation', () => {
  it('the old reminder sends nothing, the move and the cancellation carry the same calendar event, raised', async () => {
    const [first, second] = await slotsAhead(30, 2);
    const phone = uniquePhone();
    const email = `mueve.${phone}@example.com`;
    const booked = await book(first?.start as string, { name: 'Jorge Ek', phone, email });
    await mailTo(email, 'Tu cita quedó agendada');
    const oldReminder = (await jobsOf(booked.id)).find(
      (job) =>
        job.payload.message === 'reminder' && job.payload.channel === 'whatsapp' && job.payload.hoursBefore === 2,
    );
    expect(oldReminder).toBeDefined();

    await moveTo(booked.id, second as FreeSlot, Date.parse(booked.start));
    const moved = await mailTo(email, 'Tu cita cambió');
    expect(calendarOf(moved)).toMatchObject({
      METHOD: 'REQUEST',
      UID: `cita-${booked.id}@www.ceibacasas.mx`,
      SEQUENCE: '1',
      DTSTART: icsTime(second?.start as string),
    });
    const movedParameters = await templateTo(phone, 'cita_cambiada');
    expect(movedParameters[1]).toBe('Visita a la casa muestra');
    // The new time has its own reminders.
    const newReminder = (await jobsOf(booked.id)).find(
      (job) =>
        job.payload.message === 'reminder' &&
        job.payload.channel === 'whatsapp' &&
        job.payload.hoursBefore === 2 &&
        job.payload.start === Date.parse(second?.start as string),
    );
    expect(newReminder?.run_at.getTime()).toBe(Date.parse(second?.start as string) - 2 * HOUR);

    // The old reminder's time comes: it runs, and sends nothing.
    const before = templatesTo(phone).length;
    await runNow(oldReminder?.key as string);
    // The job stores a template synchronously when it sends one (its send follows): none was stored.
    expect(await remindersStored(booked.id)).toBe(0);
    expect(templatesTo(phone, 'cita_recordatorio')).toEqual([]);
    expect(templatesTo(phone)).toHaveLength(before);

    // Cancelled: the calendar file cancels the same event, a step further.
    await change(booked.id, `UPDATE appointments SET status = 'cancelada', updated_at = now() WHERE id = $1`, [], {
      kind: 'cancelled',
    });
    const cancelled = await mailTo(email, 'Tu cita se canceló');
    expect(calendarOf(cancelled)).toMatchObject({
      METHOD: 'CANCEL',
      UID: `cita-${booked.id}@www.ceibacasas.mx`,
      SEQUENCE: '2',
      STATUS: 'CANCELLED',
      DTSTART: icsTime(second?.start as string),
    });
    expect(cancelled.text).not.toContain('/cita?t=');
    await templateTo(phone, 'cita_cancelada');
    await mailTo('ana.citas@ceiba.mx', 'Cita cancelada: Visita a la casa muestra con Jorge Ek');

    // The new time's reminder comes too: cancelled, it sends nothing either.
    await runNow(newReminder?.key as string);
    expect(await remindersStored(booked.id)).toBe(0);
    expect(templatesTo(phone, 'cita_recordatorio')).toEqual([]);
  });

  it('tells every move on WhatsApp, a move back to a time told before too', async () => {
    const [first, second, third] = await slotsAhead(30, 3);
    const phone = uniquePhone();
    const booked = await book(first?.start as string, { name: 'Raúl Ku', phone });
    await moveTo(booked.id, second as FreeSlot, Date.parse(first?.start as string));
    await until(() => templatesTo(phone, 'cita_cambiada').length === 1, 'the first move told');
    await moveTo(booked.id, third as FreeSlot, Date.parse(second?.start as string));
    await until(() => templatesTo(phone, 'cita_cambiada').length === 2, 'the second move told');
    // Back to the second time: told again, with that time.
    await moveTo(booked.id, second as FreeSlot, Date.parse(third?.start as string));
    await until(() => templatesTo(phone, 'cita_cambiada').length === 3, 'the move back told');
  });

  it('a change rolled back queues nothing', async () => {
    const [slot] = await slotsAhead(30, 1);
    const booked = await book(slot?.start as string, { name: 'Ana Poot', phone: uniquePhone() });
    const before = (await jobsOf(booked.id)).length;
    await expect(
      inTransaction(async (client) => {
        await client.query(`UPDATE appointments SET status = 'cancelada' WHERE id = $1`, [booked.id]);
        await appointmentChanged(client, booked.id, { kind: 'cancelled' }, { by: 'buyer' });
        throw new Error('the change failed after');
      }),
    ).rejects.toThrow('the change failed after');
    expect((await jobsOf(booked.id)).filter((job) => job.payload.message === 'cancelled')).toEqual([]);
    expect((await jobsOf(booked.id)).length).toBeLessThanOrEqual(before);
  });
});

describe('what the visitor typed', () => {
  it('a name that is no name reaches neither the template nor the e-mail: the twin without it goes', async () => {
    const [slot] = await slotsAhead(30, 1);
    const phone = uniquePhone();
    const email = `raro.${phone}@example.com`;
    await book(slot?.start as string, { name: 'Visita www.ejemplo.com', phone, email });
    const parameters = await templateTo(phone, 'cita_confirmada_sin_nombre');
    expect(parameters).toHaveLength(4);
    expect(parameters.join(' ')).not.toContain('ejemplo');
    const mail = await mailTo(email, 'Tu cita quedó agendada');
    expect(mail.text).toMatch(/^Hola, tu cita quedó agendada\./);
    expect(`${mail.text}${mail.html}${calendarOf(mail).ATTENDEE}`).not.toContain('ejemplo.com');
  });
});

describe('an appointment’s e-mails', () => {
  it('go to the address given with its booking: another booking with the same phone and another address takes none', async () => {
    const [first, second] = await slotsAhead(30, 2);
    const phone = uniquePhone();
    const hers = `lucia.${phone}@correo.mx`;
    const other = `otro.${phone}@correo.mx`;
    const booked = await book(first?.start as string, { name: 'Lucía Pech', phone, email: hers });
    await mailTo(hers, 'Tu cita quedó agendada');
    // Someone who knows her number books another visit with their own address (the contact is hers: one phone).
    await book(second?.start as string, { name: 'Lucía Pech', phone, email: other });
    await mailTo(other, 'Tu cita quedó agendada');
    // Her visit's reminder, with its link to move or cancel it, still goes to her.
    const reminder = (await jobsOf(booked.id)).find(
      (job) =>
        job.payload.message === 'reminder' &&
        job.payload.to === 'buyer' &&
        job.payload.channel === 'email' &&
        job.payload.hoursBefore === 24,
    );
    await runNow(reminder?.key as string);
    const mail = await mailTo(hers, 'Recordatorio');
    expect(mail.text).toMatch(/\/cita\?t=/);
    const toOther = smtp.messages.filter((entry) =>
      entry.to && !Array.isArray(entry.to) ? entry.to.value.some((to) => to.address === other) : false,
    );
    expect(toOther.map((entry) => entry.subject?.split(':')[0])).toEqual(['Tu cita quedó agendada']);
  });
});

describe('a buyer who asked for no automatic messages', () => {
  it('gets no WhatsApp template, the e-mail all the same, and the history says why', async () => {
    const phone = uniquePhone();
    const email = `baja.${phone}@example.com`;
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (name, phone, is_buyer) VALUES ('Pedro Uc', $1, true) RETURNING id`,
      [`+52${phone}`],
    );
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction, opted_out_at)
       VALUES ($1, now(), 'in', now())`,
      [contact?.id],
    );
    const [slot] = await slotsAhead(30, 1);
    await book(slot?.start as string, { name: 'Pedro Uc', phone, email });
    await mailTo(email, 'Tu cita quedó agendada');
    await until(
      async () =>
        (await countRows(
          'contact_events',
          `contact_id = $1 AND kind = 'appointment_message' AND to_value = 'no_enviado'
           AND from_value = 'Confirmación de la cita por WhatsApp' AND detail LIKE '%BAJA%'`,
          [contact?.id],
        )) === 1,
      'the history’s line',
    );
    expect(await countRows('whatsapp_messages', `contact_id = $1 AND direction = 'out'`, [contact?.id])).toBe(0);
    expect(templatesTo(phone)).toEqual([]);
  });
});

describe('a move that hands the appointment to another adviser', () => {
  it('tells the adviser it was taken from that it is no longer theirs, and the new one that it is theirs', async () => {
    // A second member who gives the visit, for this story only.
    const betoId = await seedMemberGiving(sql, VISIT, 'Beto Pech');
    const [beto] = await sql<{ id: string; email: string }>('SELECT id, email FROM users WHERE id = $1', [betoId]);
    try {
      // Two times where neither member has anything yet (the stories before gave Ana appointments).
      const free: FreeSlot[] = [];
      for (const slot of await slotsAhead(30, 40)) {
        const busy = await countRows(
          'appointments',
          `status IN ('confirmada', 'por_pagar') AND blocked && tstzrange($1::timestamptz - interval '1 hour', $2::timestamptz + interval '1 hour')`,
          [slot.start, slot.end],
        );
        if (busy === 0) free.push(slot);
        if (free.length === 2) break;
      }
      const [first, second] = free;
      const phone = uniquePhone();
      const booked = await book(first?.start as string, { name: 'Nora Chi', phone });
      const [given] = await sql<{ member_id: string; contact_id: string }>(
        'SELECT member_id, contact_id FROM appointments WHERE id = $1',
        [booked.id],
      );
      const emails: Record<string, string> = {
        [ana]: 'ana.citas@ceiba.mx',
        [betoId]: beto?.email as string,
      };
      const before = given?.member_id as string;
      const after = before === ana ? betoId : ana;
      // Its member is busy at the new time (another person's appointment): the move gives it to the other one.
      const [other] = await sql<{ id: string }>(
        `INSERT INTO contacts (name, phone, is_buyer) VALUES ('Otra Persona', $1, true) RETURNING id`,
        [`+52${uniquePhone()}`],
      );
      await sql(
        `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
         VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz,
                 tstzrange($5::timestamptz - interval '15 minutes', $6::timestamptz + interval '15 minutes'), 'confirmada', 'panel')`,
        [other?.id, VISIT, MERIDA, before, second?.start, second?.end],
      );
      const moved = await fetch(`${server.url}/api/appointments/manage`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
        body: JSON.stringify({
          t: manageToken(booked.id, Date.parse(first?.start as string) + 86_400_000),
          action: 'reprogramar',
          start: second?.start,
        }),
      });
      expect(moved.status, await moved.clone().text()).toBe(200);
      const [now] = await sql<{ member_id: string }>('SELECT member_id FROM appointments WHERE id = $1', [booked.id]);
      expect(now?.member_id).toBe(after);
      const gone = await mailTo(emails[before] as string, 'Ya no es tuya: Visita a la casa muestra con Nora Chi');
      expect(gone.text).toContain('pasó a otro asesor');
      await mailTo(emails[after] as string, 'Cita cambiada: Visita a la casa muestra con Nora Chi');
    } finally {
      await sql('DELETE FROM member_appointment_kinds WHERE member_id = $1', [betoId]);
    }
  });
});

describe('an adviser who left the team with visits ahead', () => {
  it('leaves no visit untold: its notices go to the administrators, none to the one who left', async () => {
    const [admin] = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, name) VALUES ('direccion@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Dirección')
       RETURNING id`,
    );
    await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'admin')`, [admin?.id]);
    const [slot] = await slotsAhead(30, 1);
    const booked = await book(slot?.start as string, { name: 'Lidia Uc', phone: uniquePhone() });
    const [given] = await sql<{ member_id: string }>('SELECT member_id FROM appointments WHERE id = $1', [booked.id]);
    await mailTo('ana.citas@ceiba.mx', 'Nueva cita: Visita a la casa muestra con Lidia Uc');
    await sql('UPDATE users SET deactivated_at = now() WHERE id = $1', [given?.member_id]);
    try {
      await change(booked.id, `UPDATE appointments SET status = 'cancelada', updated_at = now() WHERE id = $1`, [], {
        kind: 'cancelled',
      });
      const told = await mailTo('direccion@ceiba.mx', 'Cita cancelada: Visita a la casa muestra con Lidia Uc');
      expect(told.text).toContain('Lidia Uc');
      expect(
        smtp.messages.filter(
          (mail) =>
            mail.subject?.startsWith('Cita cancelada: Visita a la casa muestra con Lidia Uc') === true &&
            JSON.stringify(mail.to).includes('ana.citas@ceiba.mx'),
        ),
      ).toEqual([]);
    } finally {
      await sql('UPDATE users SET deactivated_at = NULL WHERE id = $1', [given?.member_id]);
    }
  });
});
