import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { site } from '../../src/data/site.ts';
import type { SendMessageAnswer, SendRefusalAnswer, WhatsappState } from '../../src/lib/whatsapp/contract.ts';
import { CHOICE_TEXTS } from '../../src/server/whatsapp/booking.ts';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { untilValue } from '../support/until.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  type SentRequest,
  startFakePlatform,
  wamid,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';
import { webhookEventsProcessed } from '../support/whatsapp-queue.ts';

/**
 * Issue #40, part 3 (decision 0063): inside the 24-hour window an adviser
 * sends the next free slots as an interactive list; the buyer's choice
 * (a `list_reply` on the webhook, signed as Meta signs it) books it for the
 * contact whose number wrote, once, and is answered in the conversation.
 * The Cloud API is the fake at the network edge; PostgreSQL and the queue
 * are real. Carla is the only member who gives the visit, every day from
 * 00:00 to 23:59 Mérida time, so the place's hours decide the slots.
 */

let server: RunningServer;
let platform: FakePlatform;
let adviser: { id: string; cookie: string };
const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';
/** The $499 advisory, by video call on Mérida's clock: a paid kind, booked "por pagar". */
const ADVISORY = 'asesoria-personalizada';

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform, { PLATFORM_RATE_LIMIT: '0', LEAD_RATE_LIMIT: '1000' }));
  const admin = await setupAdmin(server.url);
  adviser = await inviteAdviser(server.url, admin, 'carla@ceiba.mx', 'Carla Pech Ku');
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, $2), ($1, $3)`, [
    adviser.id,
    VISIT,
    ADVISORY,
  ]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [adviser.id],
  );
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

const call = (method: string, pathname: string, body?: unknown) =>
  fetch(server.url + pathname, {
    method,
    headers: { Cookie: adviser.cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** untilValue with this file's bound and the server’s log. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) =>
  untilValue(read, done, what, { timeoutMs, context: () => server.output().slice(-2000) });

async function contactWhoWrote(from: string, name: string): Promise<string> {
  await postWebhook(server.url, inboundPayload({ from, name, content: { body: 'Hola, quiero agendar una visita' } }));
  const [row] = await eventually(
    () => sql<{ id: string }>(`SELECT contact_id AS id FROM whatsapp_messages WHERE raw ->> 'from' = $1`, [from]),
    (rows) => rows.length > 0,
    'the inbound message',
  );
  return (row as { id: string }).id;
}

interface ListRequest {
  type: 'list';
  body: { text: string };
  footer?: { text: string };
  action: {
    button: string;
    sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
  };
}

const sentTo = (to: string, type: string) => platform.sent.filter((entry) => entry.to === to && entry.type === type);

/** "Horarios disponibles" pressed for `contactId`: the list as the platform received it. */
async function sendSlots(contactId: string, to: string, appointment = VISIT, place = MERIDA): Promise<ListRequest> {
  const before = sentTo(to, 'interactive').length;
  const response = await call('POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
    kind: 'slots',
    appointment,
    place,
    idempotencyKey: randomUUID(),
  });
  expect(response.status).toBe(202);
  const sent = await eventually(
    async () => sentTo(to, 'interactive'),
    (list) => list.length > before,
    'the list at the platform',
  );
  return (sent.at(-1) as SentRequest).body.interactive as ListRequest;
}

/** The buyer taps `row` of a list: the webhook's `list_reply`, with the list's message as its context. */
function choice(from: string, row: { id: string; title: string; description?: string }, id = wamid()) {
  return inboundPayload({
    from,
    id,
    type: 'interactive',
    content: { type: 'list_reply', list_reply: row },
    extra: { context: { from: '529991112233', id: 'wamid.list' } },
  });
}

/** The booking job of the choice `waId` has run (its job, added with the message, is gone). */
async function choiceHandled(waId: string): Promise<void> {
  await webhookEventsProcessed(server);
  const [message] = await sql<{ id: string }>(`SELECT id FROM whatsapp_messages WHERE wa_message_id = $1`, [waId]);
  expect(message).toBeDefined();
  await eventually(
    () => countRows('graphile_worker.jobs', `key = $1`, [`wa-book:${message?.id}`]),
    (count) => count === 0,
    'the booking job',
  );
}

const rows = (list: ListRequest) => list.action.sections.flatMap((section) => section.rows);

describe('the free slots as a list message', () => {
  it('sends the next free slots in the documented shape: at most 10 rows, grouped by day, on Mérida’s clock', async () => {
    const contactId = await contactWhoWrote('5219994440001', 'Ana María Couoh');
    const state = (await (await call('GET', `/api/admin/contacts/${contactId}/whatsapp`)).json()) as WhatsappState;
    expect(state.slotOptions).toContainEqual({
      appointment: VISIT,
      place: MERIDA,
      label: 'Visita a la casa muestra · Casa muestra Mérida',
    });

    const response = await call('POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'slots',
      appointment: VISIT,
      place: MERIDA,
      idempotencyKey: randomUUID(),
    });
    expect(response.status).toBe(202);
    const { message } = (await response.json()) as SendMessageAnswer;
    expect(message).toMatchObject({ direction: 'out', kind: 'interactive', sentBy: { name: 'Carla Pech Ku' } });
    expect(message.body).toMatch(/^Hola Ana\. Estos son los próximos horarios libres para «Visita a la casa muestra»/);
    expect(message.list?.button).toBe('Ver horarios');

    const [request] = await eventually(
      async () => sentTo('5219994440001', 'interactive'),
      (list) => list.length === 1,
      'the list',
    );
    expect(request?.body).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5219994440001',
      type: 'interactive',
      biz_opaque_callback_data: message.id,
    });
    const list = request?.body.interactive as ListRequest;
    expect(list.type).toBe('list');
    expect(list.body.text.length).toBeLessThanOrEqual(1024);
    expect(list.footer?.text).toBe('Horarios en hora de Mérida');
    expect(list.action.button.length).toBeLessThanOrEqual(20);
    expect(list.action.sections.length).toBeGreaterThan(1);
    expect(list.action.sections.length).toBeLessThanOrEqual(10);
    const all = rows(list);
    expect(all.length).toBeGreaterThan(1);
    expect(all.length).toBeLessThanOrEqual(10);
    expect(new Set(all.map((row) => row.id)).size).toBe(all.length);
    for (const section of list.action.sections) {
      // More than one section: each has a title, the day.
      expect(section.title).toMatch(/^[A-ZÁÉÍÓÚ][a-záéíóú]+ \d{1,2} de [a-z]+$/);
      expect(section.title?.length).toBeLessThanOrEqual(24);
      expect(section.rows.length).toBeGreaterThan(0);
      for (const row of section.rows) {
        expect(row.id.length).toBeLessThanOrEqual(200);
        expect(row.title.length).toBeLessThanOrEqual(24);
        expect(row.description?.length ?? 0).toBeLessThanOrEqual(72);
        // "sáb 6 mar · 10:00": the house opens 09:00 to 18:00 (10:00 to 14:00 on Saturdays), an hour's visit.
        const [, hour] = /· (\d{2}):\d{2}$/.exec(row.title) ?? [];
        expect(Number(hour)).toBeGreaterThanOrEqual(9);
        expect(Number(hour)).toBeLessThanOrEqual(17);
        expect(row.description).toBe('Visita a la casa muestra · Casa muestra Mérida');
      }
    }
    // The conversation shows it; the activity log says who sent it.
    const page = (await (await call('GET', `/api/admin/contacts/${contactId}/whatsapp/messages`)).json()) as {
      messages: { id: string; list?: { sections: { rows: { title: string }[] }[] } }[];
    };
    const shown = page.messages.find((entry) => entry.id === message.id);
    expect(shown?.list?.sections.flatMap((section) => section.rows.map((row) => row.title))).toEqual(
      all.map((row) => row.title),
    );
    expect(await countRows('activity_log', `kind = 'whatsapp_slots' AND summary LIKE '%Ana María Couoh%'`)).toBe(1);
  });

  it('is refused outside the 24-hour window with the existing Spanish reason, and nothing is sent', async () => {
    const contactId = await contactWhoWrote('5219994440002', 'Iván Tun');
    await sql(`UPDATE whatsapp_conversations SET last_inbound_at = now() - interval '25 hours' WHERE contact_id = $1`, [
      contactId,
    ]);
    const state = (await (await call('GET', `/api/admin/contacts/${contactId}/whatsapp`)).json()) as WhatsappState;
    expect(state.slotOptions).toEqual([]);
    const response = await call('POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'slots',
      appointment: VISIT,
      place: MERIDA,
      idempotencyKey: randomUUID(),
    });
    expect(response.status).toBe(409);
    expect((await response.json()) as SendRefusalAnswer).toEqual({
      reason: 'window_closed',
      error:
        'Pasaron más de 24 horas desde el último mensaje del prospecto: WhatsApp solo permite enviarle una plantilla aprobada hasta que vuelva a escribir.',
    });
    expect(await countRows('whatsapp_messages', `contact_id = $1 AND direction = 'out'`, [contactId])).toBe(0);
  });

  it('refuses a kind nobody gives there with a Spanish reason', async () => {
    const contactId = await contactWhoWrote('5219994440003', 'Rosa Ek');
    const response = await call('POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'slots',
      appointment: 'sesion-socios',
      place: 'oficina-cdmx',
      idempotencyKey: randomUUID(),
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as SendRefusalAnswer).reason).toBe('no_slots');
  });
});

describe('the buyer’s choice', () => {
  it('books exactly one appointment for the contact who wrote, even when the webhook is delivered again, and confirms it', async () => {
    const from = '5219994440010';
    const contactId = await contactWhoWrote(from, 'Lucía Poot');
    const list = await sendSlots(contactId, from);
    const row = rows(list)[1] as { id: string; title: string; description?: string };
    const waId = wamid();
    const payload = choice(from, row, waId);
    expect((await postWebhook(server.url, payload)).status).toBe(200);
    // Meta's retry: the same delivery, and the same message in another delivery.
    expect((await postWebhook(server.url, payload)).status).toBe(200);
    expect((await postWebhook(server.url, { ...payload, entry: [...payload.entry] })).status).toBe(200);
    await choiceHandled(waId);

    const booked = await sql<{ contact_id: string; source: string; status: string; kind: string; place: string }>(
      `SELECT contact_id, source, status, kind, place FROM appointments WHERE contact_id = $1`,
      [contactId],
    );
    expect(booked).toEqual([
      { contact_id: contactId, source: 'whatsapp', status: 'confirmada', kind: VISIT, place: MERIDA },
    ]);
    expect(await countRows('contacts', `phone = '+529994440010'`)).toBe(1);
    expect(await countRows('contact_events', `contact_id = $1 AND kind = 'appointment'`, [contactId])).toBe(1);

    const [confirmation] = await eventually(
      async () => sentTo(from, 'text'),
      (sent) => sent.length > 0,
      'the confirmation',
    );
    const text = (confirmation?.body.text as { body: string } | undefined)?.body;
    const [, hour] = /· (\d{2}:\d{2})$/.exec(row.title) ?? [];
    expect(text).toMatch(/^¡Listo, Lucía! Tu cita quedó agendada:\nVisita a la casa muestra · Casa muestra Mérida\n/);
    expect(text).toContain(`${hour} (hora de Mérida)`);
    await webhookEventsProcessed(server);
    expect(sentTo(from, 'text')).toHaveLength(1);
    // The booking job itself run again (a worker that died after booking): nothing new.
    const [stored] = await sql<{ id: string }>(`SELECT id FROM whatsapp_messages WHERE wa_message_id = $1`, [waId]);
    await sql(`SELECT graphile_worker.add_job('whatsapp_book_choice', json_build_object('messageId', $1::uuid))`, [
      stored?.id,
    ]);
    await eventually(
      () => countRows('graphile_worker.jobs', `task_identifier = 'whatsapp_book_choice'`),
      (count) => count === 0,
      'the job run again',
    );
    await eventually(
      () => countRows('whatsapp_messages', `contact_id = $1 AND status = 'sending'`, [contactId]),
      (count) => count === 0,
      'nothing left to send',
    );
    expect(await countRows('appointments', `contact_id = $1`, [contactId])).toBe(1);
    expect(sentTo(from, 'text')).toHaveLength(1);
    expect(sentTo(from, 'interactive')).toHaveLength(1);
    // In the conversation: their first message, the list, their choice, the confirmation (automatic).
    // (Theirs carry the platform's time, to the second: the order by time is not asserted.)
    const kinds = await sql<{ direction: string; kind: string; automated: boolean }>(
      `SELECT direction, kind, automated FROM whatsapp_messages WHERE contact_id = $1 AND (kind <> 'text' OR direction = 'out')`,
      [contactId],
    );
    expect(kinds).toHaveLength(3);
    expect(kinds).toEqual(
      expect.arrayContaining([
        { direction: 'out', kind: 'interactive', automated: false },
        { direction: 'in', kind: 'interactive', automated: false },
        { direction: 'out', kind: 'text', automated: true },
      ]),
    );

    // A second tap on the same row (another message): the time is theirs already, nothing is booked twice and
    // no apology offers it again.
    const secondTap = wamid();
    await postWebhook(server.url, choice(from, row, secondTap));
    await choiceHandled(secondTap);
    expect(await countRows('appointments', `contact_id = $1`, [contactId])).toBe(1);
    const [told] = await eventually(
      async () => sentTo(from, 'text').slice(1),
      (sent) => sent.length > 0,
      'the answer to the second tap',
    );
    expect((told?.body.text as { body: string } | undefined)?.body).toBe(CHOICE_TEXTS.alreadyHeld);
    expect(sentTo(from, 'interactive')).toHaveLength(1);
  });

  it('tells a paid kind’s buyer until when it is held and where to pay, in the confirmation', async () => {
    const from = '5219994440015';
    const contactId = await contactWhoWrote(from, 'Rosa Canché');
    const list = await sendSlots(contactId, from, ADVISORY, 'videollamada');
    const row = rows(list)[0] as { id: string; title: string; description?: string };
    const waId = wamid();
    await postWebhook(server.url, choice(from, row, waId));
    await choiceHandled(waId);
    const [booked] = await sql<{ status: string; price_mxn: number }>(
      `SELECT status, price_mxn FROM appointments WHERE contact_id = $1`,
      [contactId],
    );
    expect(booked).toEqual({ status: 'por_pagar', price_mxn: 499 });
    const [confirmation] = await eventually(
      async () => sentTo(from, 'text'),
      (sent) => sent.length > 0,
      'the confirmation',
    );
    const text = (confirmation?.body.text as { body: string } | undefined)?.body ?? '';
    // Online payments are off on this server: the site's payment link, as the e-mail gives it.
    expect(text).toMatch(
      new RegExp(
        `\\nTu lugar queda apartado hasta el .+: completa el pago de \\$499(\\.00)? MXN aquí: ${site.paymentLink.replaceAll('.', '\\.')}$`,
      ),
    );
    expect(text).not.toContain('Un asesor te enviará');
  });

  it('answers a slot taken meanwhile with an apology and a fresh list, and books nothing', async () => {
    const from = '5219994440020';
    const contactId = await contactWhoWrote(from, 'Pedro Chi');
    const list = await sendSlots(contactId, from);
    const row = rows(list)[0] as { id: string; title: string };
    // Someone else books that very slot on the site first.
    const slots = (await (
      await fetch(
        `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${new Date().toISOString().slice(0, 10)}&to=${new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)}`,
      )
    ).json()) as { slots: { start: string }[] };
    const start = slots.slots.find(
      (slot) =>
        new Intl.DateTimeFormat('es-MX', {
          timeZone: 'America/Merida',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(Date.parse(slot.start)) === row.title.slice(-5) &&
        new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Merida', day: 'numeric' }).format(
          Date.parse(slot.start),
        ) === row.title.split(' ')[1],
    )?.start;
    expect(start).toBeDefined();
    const other = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ name: 'Marta Uc', phone: '999 555 0101', kind: VISIT, place: MERIDA, start }),
    });
    expect(other.status).toBe(201);

    const before = sentTo(from, 'interactive').length;
    const waId = wamid();
    await postWebhook(server.url, choice(from, row, waId));
    await choiceHandled(waId);
    expect(await countRows('appointments', `contact_id = $1`, [contactId])).toBe(0);
    const [fresh] = await eventually(
      async () => sentTo(from, 'interactive').slice(before),
      (sent) => sent.length > 0,
      'the fresh list',
    );
    const again = fresh?.body.interactive as ListRequest;
    expect(again.body.text).toMatch(/^Lo sentimos, ese horario se ocupó mientras lo elegías\. Estos son/);
    expect(rows(again).length).toBeGreaterThan(0);
    expect(rows(again).length).toBeLessThanOrEqual(10);
    expect(rows(again).map((entry) => entry.title)).not.toContain(row.title);
    expect(sentTo(from, 'text')).toHaveLength(0);
  });

  it('books nothing for a forged row id, nor for a row of another contact’s list', async () => {
    const from = '5219994440030';
    const contactId = await contactWhoWrote(from, 'Elena Canché');
    const list = await sendSlots(contactId, from);
    const row = rows(list)[2] as { id: string; title: string };
    const parts = row.id.split(':');
    const forged = [
      // Another time, the signature of the first.
      {
        ...row,
        id: [...parts.slice(0, 3), (Number.parseInt(parts[3] as string, 36) + 60).toString(36), parts[4]].join(':'),
      },
      // A signature made up.
      { ...row, id: [...parts.slice(0, 4), randomBytes(16).toString('base64url')].join(':') },
      // Not even the layout.
      { ...row, id: `cita:${VISIT}:${MERIDA}:zzzz` },
    ];
    for (const entry of forged) {
      const waId = wamid();
      await postWebhook(server.url, choice(from, entry, waId));
      await choiceHandled(waId);
    }
    // Elena's row, sent from another number: never books for either of them.
    const stranger = '5219994440031';
    const strangerId = await contactWhoWrote(stranger, 'Alguien Más');
    const waId = wamid();
    await postWebhook(server.url, choice(stranger, row, waId));
    await choiceHandled(waId);

    expect(await countRows('appointments', `contact_id IN ($1, $2)`, [contactId, strangerId])).toBe(0);
    expect(sentTo(from, 'text')).toHaveLength(0);
    expect(sentTo(stranger, 'text')).toHaveLength(0);
    expect(sentTo(stranger, 'interactive')).toHaveLength(0);
    // The choices are in the conversation for an adviser to read.
    expect(
      await countRows('whatsapp_messages', `contact_id = $1 AND direction = 'in' AND kind = 'interactive'`, [
        contactId,
      ]),
    ).toBe(3);
  });

  it('books a choice whose booking job gave up during an outage, at the queue’s next upkeep', async () => {
    const from = '5219994440040';
    const contactId = await contactWhoWrote(from, 'Mateo Uc');
    const row = rows(await sendSlots(contactId, from))[0] as { id: string; title: string };
    const waId = wamid();
    // The outage: every booking refused while the trigger stands.
    await sql(`CREATE FUNCTION refuse_booking() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'bookings refused (test)'; END $$`);
    await sql(
      'CREATE TRIGGER refuse_booking BEFORE INSERT ON appointments FOR EACH ROW EXECUTE FUNCTION refuse_booking()',
    );
    let key = '';
    try {
      await postWebhook(server.url, choice(from, row, waId));
      await webhookEventsProcessed(server);
      const [message] = await sql<{ id: string }>(`SELECT id FROM whatsapp_messages WHERE wa_message_id = $1`, [waId]);
      key = `wa-book:${message?.id}`;
      await eventually(
        () => sql<{ last_error: string | null }>('SELECT last_error FROM graphile_worker.jobs WHERE key = $1', [key]),
        (jobs) => jobs[0]?.last_error?.includes('bookings refused') === true,
        'a refused try',
      );
      // Its attempts spent, as by half an hour of outage.
      await sql('UPDATE graphile_worker._private_jobs SET attempts = max_attempts WHERE key = $1', [key]);
    } finally {
      await sql('DROP TRIGGER refuse_booking ON appointments');
      await sql('DROP FUNCTION refuse_booking()');
    }
    await eventually(
      () =>
        sql<{ locked: boolean }>('SELECT locked_at IS NOT NULL AS locked FROM graphile_worker.jobs WHERE key = $1', [
          key,
        ]),
      (jobs) => jobs[0]?.locked === false,
      'the job given up',
    );
    expect(await countRows('appointments', `contact_id = $1`, [contactId])).toBe(0);

    // The queue's upkeep (every half minute, and at every start) takes it up again.
    const { parseConfig } = await import('../../src/server/config.ts');
    const { withDatabase } = await import('../../src/server/db/database.ts');
    const { maintainWhatsapp } = await import('../../src/server/whatsapp/queue.ts');
    const config = parseConfig({ ...process.env, ...whatsappEnv(platform) });
    await withDatabase((db) => maintainWhatsapp(db), config);
    const [confirmation] = await eventually(
      async () => sentTo(from, 'text'),
      (sent) => sent.length > 0,
      'the confirmation',
    );
    expect((confirmation?.body.text as { body: string } | undefined)?.body).toMatch(
      /^¡Listo, Mateo! Tu cita quedó agendada:/,
    );
    expect(await countRows('appointments', `contact_id = $1 AND source = 'whatsapp'`, [contactId])).toBe(1);
  });
});
