import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  QuickReplyList,
  SendMessageAnswer,
  SendRefusalAnswer,
  WhatsappState,
} from '../../src/lib/whatsapp/contract.ts';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { untilValue } from '../support/until.ts';
import {
  type FakePlatform,
  inboundPayload,
  MEDIA_BYTES,
  postWebhook,
  startFakePlatform,
  statusPayload,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';

/** Issue #27, items 2, 3 and 5: media for members only, sending through the queue, quick replies. */
let server: RunningServer;
let platform: FakePlatform;
let admin: string;
let adviser: { id: string; cookie: string };

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform));
  admin = await setupAdmin(server.url);
  adviser = await inviteAdviser(server.url, admin, 'carla@ceiba.mx', 'Carla Pech Ku');
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

const call = (cookie: string, method: string, pathname: string, body?: unknown) =>
  fetch(server.url + pathname, {
    method,
    headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** untilValue with this file's bound and the server’s log. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) =>
  untilValue(read, done, what, { timeoutMs, context: () => server.output().slice(-2000) });

/** A contact who wrote to us `from` (their WhatsApp id) just now: the window is open. */
async function contactWhoWrote(from: string, name = 'Ana María Couoh'): Promise<string> {
  await postWebhook(server.url, inboundPayload({ from, name, content: { body: 'Hola, ¿precios?' } }));
  const [row] = await eventually(
    () => sql<{ id: string }>(`SELECT contact_id AS id FROM whatsapp_messages WHERE raw ->> 'from' = $1`, [from]),
    (rows) => rows.length > 0,
    'the inbound message',
  );
  return (row as { id: string }).id;
}

async function quietContact(phone: string, name: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, $2, true) RETURNING id`,
    [phone, name],
  );
  return (row as { id: string }).id;
}

const messageRow = (id: string) =>
  sql<{
    status: string;
    wa_message_id: string | null;
    error_code: number | null;
    error_reason: string | null;
    attempts: number;
  }>('SELECT status, wa_message_id, error_code, error_reason, attempts FROM whatsapp_messages WHERE id = $1', [
    id,
  ]).then((rows) => rows[0]);

describe('sending from the contact page', () => {
  it('stores the press at once as "sending", sends it once however often it is pressed, and follows its statuses to read', async () => {
    const contactId = await contactWhoWrote('5219991230001');
    const state = (await (
      await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}/whatsapp`)
    ).json()) as WhatsappState;
    expect(state).toMatchObject({
      configured: true,
      window: { open: true },
      allowed: { text: true, templates: true },
      reason: null,
    });

    const key = randomUUID();
    const press = { kind: 'text', text: 'Hola Ana, con gusto. <b>¿Tienes terreno?</b>', idempotencyKey: key };
    const before = platform.sent.length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, press),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 202]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as SendMessageAnswer[];
    const first = bodies[0]?.message;
    expect(new Set(bodies.map((body) => body.message.id)).size).toBe(1);
    expect(first).toMatchObject({
      direction: 'out',
      kind: 'text',
      body: press.text,
      sentBy: { name: 'Carla Pech Ku' },
    });
    expect(['sending', 'sent']).toContain(first?.status);

    const id = first?.id as string;
    const sent = await eventually(
      () => messageRow(id),
      (row) => row?.status === 'sent',
      'the send',
    );
    expect(platform.sent.length - before).toBe(1);
    const request = platform.sent.at(-1);
    expect(request?.to).toBe('5219991230001');
    expect(request?.body).toMatchObject({ type: 'text', text: { body: press.text }, biz_opaque_callback_data: id });
    expect(await countRows('whatsapp_messages', 'idempotency_key = $1', [key])).toBe(1);

    // Statuses out of order: read wins.
    for (const status of ['delivered', 'read', 'sent'] as const) {
      await postWebhook(server.url, statusPayload({ id: sent?.wa_message_id as string, status }));
    }
    await eventually(
      () => messageRow(id),
      (row) => row?.status === 'read',
      'read',
    );
    const [contact] = await sql<{ first_replied_at: Date | null; waiting_since: Date | null }>(
      `SELECT c.first_replied_at, w.waiting_since FROM contacts c JOIN whatsapp_conversations w ON w.contact_id = c.id WHERE c.id = $1`,
      [contactId],
    );
    expect(contact?.first_replied_at).not.toBeNull();
    expect(contact?.waiting_since).toBeNull();
  });

  it('outside the 24-hour window refuses free text with the reason and sends an approved template filled in', async () => {
    const contactId = await quietContact('+529991230002', 'Beatriz Herrera Solís');
    const state = (await (
      await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}/whatsapp`)
    ).json()) as WhatsappState;
    expect(state.allowed).toEqual({ text: false, templates: true });
    // She never wrote: no 24 hours passed since anything (issue #38); the reason says what is true.
    expect(state.reason).toBe(
      'El prospecto aún no nos ha escrito por WhatsApp: WhatsApp solo permite enviarle una plantilla aprobada hasta que escriba.',
    );
    expect(state.templates.find((template) => template.name === 'primer_contacto')?.preview).toMatch(
      /^Hola Beatriz, gracias/,
    );

    const text = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'text',
      text: 'Hola',
      idempotencyKey: randomUUID(),
    });
    expect(text.status).toBe(409);
    expect((await text.json()) as SendRefusalAnswer).toMatchObject({
      reason: 'never_wrote',
      error: expect.stringMatching(/^El prospecto aún no nos ha escrito por WhatsApp: .*plantilla/),
    });

    const template = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'retomar_conversacion',
      idempotencyKey: randomUUID(),
    });
    expect(template.status).toBe(202);
    const { message } = (await template.json()) as SendMessageAnswer;
    expect(message.body).toMatch(/^Hola Beatriz, ¿sigues interesado/);
    await eventually(
      () => messageRow(message.id),
      (row) => row?.status === 'sent',
      'the template',
    );
    const request = platform.sent.find((entry) => entry.body.biz_opaque_callback_data === message.id);
    expect(request?.to).toBe('529991230002');
    expect(request?.body.template).toEqual({
      name: 'retomar_conversacion',
      language: { code: 'es_MX' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Beatriz' }] }],
    });
    expect(
      await countRows('activity_log', `kind = 'whatsapp_template' AND summary LIKE '%Beatriz Herrera Solís%'`),
    ).toBe(1);
    expect(await countRows('contact_events', `kind = 'whatsapp_template' AND contact_id = $1`, [contactId])).toBe(1);
  });

  it('a contact whose last message is over 24 hours old: the reason says so, and free text is refused', async () => {
    const contactId = await contactWhoWrote('5219991230009', 'Iván Tun');
    await sql(`UPDATE whatsapp_conversations SET last_inbound_at = now() - interval '25 hours' WHERE contact_id = $1`, [
      contactId,
    ]);
    const state = (await (
      await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}/whatsapp`)
    ).json()) as WhatsappState;
    expect(state.allowed).toEqual({ text: false, templates: true });
    expect(state.reason).toMatch(/^Pasaron más de 24 horas desde el último mensaje del prospecto/);
    const text = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'text',
      text: 'Hola',
      idempotencyKey: randomUUID(),
    });
    expect(text.status).toBe(409);
    expect(((await text.json()) as SendRefusalAnswer).reason).toBe('window_closed');
  });

  it('sends the template’s twin without the name to a contact whose name is no name (issue #38)', async () => {
    const contactId = await quietContact('+529991230029', 'Paga en www.evil.example 5000');
    const state = (await (
      await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}/whatsapp`)
    ).json()) as WhatsappState;
    expect(state.templates.find((template) => template.name === 'retomar_conversacion')?.preview).toMatch(
      /^Hola, ¿sigues interesado/,
    );
    const template = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'retomar_conversacion',
      idempotencyKey: randomUUID(),
    });
    expect(template.status).toBe(202);
    const { message } = (await template.json()) as SendMessageAnswer;
    expect(message.body).toBe(
      'Hola, ¿sigues interesado en tu casa Ceiba? Responde a este mensaje y un asesor te atiende.',
    );
    await eventually(
      () => messageRow(message.id),
      (row) => row?.status === 'sent',
      'the template',
    );
    const request = platform.sent.find((entry) => entry.body.biz_opaque_callback_data === message.id);
    expect(request?.body.template).toEqual({ name: 'retomar_conversacion_sin_nombre', language: { code: 'es_MX' } });
  });

  it('refuses templates to a contact who opted out, with the reason', async () => {
    const contactId = await contactWhoWrote('5219991230003', 'Hugo Balam');
    await postWebhook(server.url, inboundPayload({ from: '5219991230003', content: { body: 'ALTO' } }));
    await eventually(
      () => sql(`SELECT 1 FROM whatsapp_conversations WHERE contact_id = $1 AND opted_out_at IS NOT NULL`, [contactId]),
      (rows) => rows.length === 1,
      'the opt-out',
    );
    const state = (await (
      await call(admin, 'GET', `/api/admin/contacts/${contactId}/whatsapp`)
    ).json()) as WhatsappState;
    expect(state).toMatchObject({ allowed: { text: true, templates: false }, templates: [] });
    expect(state.reason).toMatch(/BAJA, ALTO, STOP o algo parecido/);
    const answer = await call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'primer_contacto',
      idempotencyKey: randomUUID(),
    });
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as SendRefusalAnswer).reason).toBe('opted_out');
  });

  it('sends a contact at most three members’ templates a day: the fourth is refused with the reason, nothing sent', async () => {
    const contactId = await quietContact('+529991230012', 'Ramiro Ek');
    const send = () =>
      call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
        kind: 'template',
        template: 'retomar_conversacion',
        idempotencyKey: randomUUID(),
      });
    for (let sent = 0; sent < 3; sent += 1) expect((await send()).status).toBe(202);
    const fourth = await send();
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toEqual({
      reason: 'template_limit',
      error:
        'Ya se enviaron 3 plantillas a este prospecto en las últimas 24 horas. Espera su respuesta o escríbele mañana.',
    });
    expect(await countRows('whatsapp_messages', `contact_id = $1 AND kind = 'template'`, [contactId])).toBe(3);
    // The three reach the platform before the next story scripts its answers.
    await eventually(
      () => countRows('whatsapp_messages', `contact_id = $1 AND status = 'sent'`, [contactId]),
      (count) => count === 3,
      'the three templates sent',
    );
  });

  it('writes to the phone the team corrected, not to the number the person first wrote from', async () => {
    const contactId = await contactWhoWrote('5219991237001', 'Sara Koh');
    const { version } = (await (await call(admin, 'GET', `/api/admin/contacts/${contactId}`)).json()) as {
      version: number;
    };
    const corrected = await call(admin, 'PATCH', `/api/admin/contacts/${contactId}/details`, {
      name: 'Sara Koh',
      phone: '9991237002',
      version,
    });
    expect(corrected.status).toBe(200);
    const template = await call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'retomar_conversacion',
      idempotencyKey: randomUUID(),
    });
    expect(template.status).toBe(202);
    const { message } = (await template.json()) as SendMessageAnswer;
    await eventually(
      () => messageRow(message.id),
      (row) => row?.status === 'sent',
      'the template',
    );
    const request = platform.sent.find((entry) => entry.body.biz_opaque_callback_data === message.id);
    expect(request?.to).toBe('529991237002');
  });

  it('keeps the three a day when a script sends eight at once: three sent, five refused', async () => {
    const contactId = await quietContact('+529991230013', 'Rosa Ek');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
          kind: 'template',
          template: 'retomar_conversacion',
          idempotencyKey: randomUUID(),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 202, 202, 409, 409, 409, 409, 409]);
    expect(await countRows('whatsapp_messages', `contact_id = $1 AND kind = 'template'`, [contactId])).toBe(3);
    await eventually(
      () => countRows('whatsapp_messages', `contact_id = $1 AND status = 'sent'`, [contactId]),
      (count) => count === 3,
      'the three templates sent',
    );
  });

  it("stores the platform's refusal with its Spanish reason and never retries a 4xx", async () => {
    const contactId = await quietContact('+529991230004', 'Iván Tun');
    const cases = [
      { status: 400, code: 131047, reason: /24 horas/ },
      { status: 400, code: 131026, reason: /no se pudo entregar/ },
      { status: 404, code: 132001, reason: /plantilla no existe/ },
      { status: 401, code: 190, reason: /token/ },
    ];
    for (const entry of cases) {
      platform.script({ status: entry.status, code: entry.code });
      const before = platform.sent.length;
      const answer = await call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
        kind: 'template',
        template: 'primer_contacto',
        idempotencyKey: randomUUID(),
      });
      const { message } = (await answer.json()) as SendMessageAnswer;
      const row = await eventually(
        () => messageRow(message.id),
        (value) => value?.status === 'failed',
        `failure ${entry.code}`,
      );
      expect(row).toMatchObject({ error_code: entry.code, attempts: 1 });
      expect(row?.error_reason).toMatch(entry.reason);
      expect(platform.sent.length - before).toBe(1);
    }
  });

  it('retries an outage (5xx) and a rate limit (429), then sends once', async () => {
    const contactId = await contactWhoWrote('5219991230005', 'Olga Poot');
    platform.script({ status: 503, code: 2 }, { status: 429, code: 130429 });
    const before = platform.sent.length;
    const answer = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'text',
      text: 'Te mando la información',
      idempotencyKey: randomUUID(),
    });
    const { message } = (await answer.json()) as SendMessageAnswer;
    const row = await eventually(
      () => messageRow(message.id),
      (value) => value?.status === 'sent',
      'the retried send',
      40_000,
    );
    expect(row?.attempts).toBe(3);
    expect(platform.sent.length - before).toBe(3);
  });
});

describe('without WHATSAPP_FIRST_REPLY_TEMPLATE', () => {
  it('a new lead gets no first reply', async () => {
    const answer = await fetch(`${server.url}/api/quick-quotes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: 'Sin Plantilla', phone: '999 123 0099', email: '', origin: 'hero' }),
    });
    expect(answer.status).toBe(201);
    expect(await countRows('whatsapp_messages', 'automated')).toBe(0);
  });
});

describe('GET /api/admin/whatsapp/media/{messageId}', () => {
  it('serves a media to signed-in members only, fetched with the token from the platform', async () => {
    await postWebhook(
      server.url,
      inboundPayload({
        from: '5219991230006',
        type: 'image',
        content: { id: '2038472910293841', mime_type: 'image/jpeg', caption: 'Foto' },
      }),
    );
    const [row] = await eventually(
      () => sql<{ id: string }>(`SELECT id FROM whatsapp_messages WHERE media_id = '2038472910293841'`),
      (rows) => rows.length === 1,
      'the photo',
    );
    const path = `/api/admin/whatsapp/media/${row?.id}`;
    expect((await fetch(server.url + path)).status).toBe(401);
    const before = platform.mediaRequests.length;
    const media = await call(adviser.cookie, 'GET', path);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    expect(media.headers.get('x-content-type-options')).toBe('nosniff');
    expect(media.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await media.arrayBuffer())).toEqual(MEDIA_BYTES);
    expect(platform.mediaRequests.slice(before)).toEqual([
      'GET /v23.0/2038472910293841',
      'GET /media/2038472910293841',
    ]);
    // Fetched when first opened: the next open is served from what was kept, the platform is not asked again.
    const again = await call(admin, 'GET', path);
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('image/jpeg');
    expect(again.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(MEDIA_BYTES);
    expect(platform.mediaRequests.slice(before)).toHaveLength(2);
  });

  it('never fetches a media from a host other than the configured ones', async () => {
    const { startFakePlatform: startOther } = await import('../support/whatsapp-platform.ts');
    const other = await startOther();
    try {
      // The same machine under another name: a host that is not WHATSAPP_API_URL's nor in WHATSAPP_MEDIA_HOSTS.
      platform.mediaUrlFor('2038472910293842', `${other.url.replace('127.0.0.1', 'localhost')}/media/2038472910293842`);
      await postWebhook(
        server.url,
        inboundPayload({
          from: '5219991230007',
          type: 'document',
          content: { id: '2038472910293842', mime_type: 'application/pdf' },
        }),
      );
      const [row] = await eventually(
        () => sql<{ id: string }>(`SELECT id FROM whatsapp_messages WHERE media_id = '2038472910293842'`),
        (rows) => rows.length === 1,
        'the document',
      );
      const answer = await call(admin, 'GET', `/api/admin/whatsapp/media/${row?.id}`);
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as { error: string }).error).toMatch(/no es de WhatsApp/);
      expect(other.mediaRequests).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('quick replies', () => {
  it("administrators edit them, advisers only use them, filled in with {nombre} and the adviser's first name", async () => {
    const input = { title: 'Saludo', body: 'Hola {nombre}, soy {asesor} de Ceiba. ¿En qué te ayudo?' };
    expect((await call(adviser.cookie, 'POST', '/api/admin/whatsapp/quick-replies', input)).status).toBe(403);
    const created = await call(admin, 'POST', '/api/admin/whatsapp/quick-replies', input);
    expect(created.status).toBe(201);
    const { quickReply } = (await created.json()) as { quickReply: { id: string } };
    expect((await call(admin, 'POST', '/api/admin/whatsapp/quick-replies', { ...input, title: 'saludo' })).status).toBe(
      409,
    );
    expect((await call(admin, 'POST', '/api/admin/whatsapp/quick-replies', { title: '', body: 'x' })).status).toBe(400);

    const contactId = await quietContact('+529991230008', 'Ramona Ek Canul');
    const list = (await (
      await call(adviser.cookie, 'GET', `/api/admin/whatsapp/quick-replies?contact=${contactId}`)
    ).json()) as QuickReplyList;
    expect(list.quickReplies).toEqual([
      expect.objectContaining({
        id: quickReply.id,
        body: input.body,
        text: 'Hola Ramona, soy Carla de Ceiba. ¿En qué te ayudo?',
      }),
    ]);
    const patched = await call(admin, 'PATCH', `/api/admin/whatsapp/quick-replies/${quickReply.id}`, {
      body: 'Buen día {nombre}',
    });
    expect(patched.status).toBe(200);
    expect((await call(adviser.cookie, 'DELETE', `/api/admin/whatsapp/quick-replies/${quickReply.id}`)).status).toBe(
      403,
    );
    expect((await call(admin, 'DELETE', `/api/admin/whatsapp/quick-replies/${quickReply.id}`)).status).toBe(204);
    expect(await countRows('activity_log', `kind = 'quick_reply_changed'`)).toBe(3);
  });
});

describe('a send cut short (the worker died after the platform accepted it)', () => {
  it('is not sent again when a status echoed its id; a lost claim without one is sent once', async () => {
    const { parseConfig } = await import('../../src/server/config.ts');
    const { withDatabase } = await import('../../src/server/db/database.ts');
    const { sendMessage } = await import('../../src/server/whatsapp/send.ts');
    const config = parseConfig({ ...process.env, ...whatsappEnv(platform), NOTIFY_LOCK_TIMEOUT_SECONDS: '2' });
    const contactId = await quietContact('+529991230010', 'Lorena Caamal');
    const [accepted, lost] = await sql<{ id: string }>(
      `INSERT INTO whatsapp_messages (contact_id, direction, kind, body, status, template_name, raw, attempts, claimed_at)
       VALUES ($1, 'out', 'template', 'Hola Lorena', 'sending', 'primer_contacto', '{"parameters": ["Lorena"]}', 1, now() - interval '1 hour'),
              ($1, 'out', 'template', 'Hola Lorena', 'sending', 'primer_contacto', '{"parameters": ["Lorena"]}', 1, now() - interval '1 hour')
       RETURNING id`,
      [contactId],
    );
    // The platform's `sent` for the first, echoing our id, came while nobody recorded the answer.
    await postWebhook(
      server.url,
      statusPayload({ id: 'wamid.cut-short-1', status: 'sent', callback: accepted?.id as string }),
    );
    await eventually(
      () => messageRow(accepted?.id as string),
      (row) => row?.status === 'sent',
      'the echoed status',
    );
    // It reached the person: their response time ends there, as with a send that recorded its answer.
    const [replied] = await sql<{ first_replied_at: Date | null }>(
      'SELECT first_replied_at FROM contacts WHERE id = $1',
      [contactId],
    );
    expect(replied?.first_replied_at).not.toBeNull();
    const before = platform.sent.length;
    expect(await withDatabase((db) => sendMessage(db, accepted?.id as string, config), config)).toBe('not-ours');
    expect(await withDatabase((db) => sendMessage(db, lost?.id as string, config), config)).toBe('sent');
    expect(await withDatabase((db) => sendMessage(db, lost?.id as string, config), config)).toBe('not-ours');
    expect(platform.sent.length - before).toBe(1);
    expect((await messageRow(accepted?.id as string))?.wa_message_id).toBe('wamid.cut-short-1');
  });
});

describe('"Sin atender" and the response time', () => {
  it("count a member's first WhatsApp message that reached the platform as the answer, not a wa.me link pressed", async () => {
    const metrics = async () =>
      (await (await call(admin, 'GET', '/api/admin/metrics')).json()) as {
        unattended: number;
        contactedWithin24h: { contacts: number; share: number | null };
      };
    const [row] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer, created_at) VALUES ('+529991230011', 'Sergio Uicab', true, now() - interval '30 hours')
       RETURNING id`,
    );
    const contactId = row?.id as string;
    const before = await metrics();
    // Pressing WhatsApp on the contact's page (a wa.me link) is an attempt, not an answer.
    await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/attempts`, { channel: 'whatsapp' });
    expect((await metrics()).unattended).toBe(before.unattended);

    const answer = await call(adviser.cookie, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'retomar_conversacion',
      idempotencyKey: randomUUID(),
    });
    const { message } = (await answer.json()) as SendMessageAnswer;
    await eventually(
      () => messageRow(message.id),
      (value) => value?.status === 'sent',
      'the answer',
    );
    const after = await metrics();
    expect(after.unattended).toBe(before.unattended - 1);
    const detail = (await (await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}`)).json()) as {
      contact?: { unattended: boolean };
      unattended?: boolean;
    };
    expect(detail.contact?.unattended ?? detail.unattended).toBe(false);
  });
});
