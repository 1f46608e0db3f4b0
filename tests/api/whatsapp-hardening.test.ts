import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage, MessagePage, SendMessageAnswer } from '../../src/lib/whatsapp/contract.ts';
import { SECURITY_HEADERS } from '../../src/server/http/headers.ts';
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
  wamid,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';

/**
 * The security review of the conversations: ids that are not ours never reach
 * PostgreSQL, a customer's media is never kept by the browser and still served
 * when keeping it fails, the platform's English never reaches the team, and
 * the token never travels unencrypted nor to a media id that is not a number.
 */
let server: RunningServer;
let platform: FakePlatform;
let admin: string;
let adviser: { id: string; cookie: string };

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform));
  admin = await setupAdmin(server.url);
  adviser = await inviteAdviser(server.url, admin, 'marta@ceiba.mx', 'Marta Chan');
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

const call = (cookie: string, method: string, pathname: string, body?: unknown, base = server.url) =>
  fetch(base + pathname, {
    method,
    headers: { Cookie: cookie, Origin: originOf(base), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** untilValue with this file's bound and the server’s log. */
const eventually = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) =>
  untilValue(read, done, what, { timeoutMs, context: () => server.output().slice(-2000) });

let phones = 0;
async function quietContact(name: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, $2, true) RETURNING id`,
    [`+529997${String(++phones).padStart(6, '0')}`, name],
  );
  return (row as { id: string }).id;
}

/** A photo the contact sent, stored as the webhook's processing leaves it (media id `mediaId`). */
async function photo(mediaId: string): Promise<string> {
  const contactId = await quietContact('Nidia Ek');
  const [row] = await sql<{ id: string }>(
    `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status, media_id, media_mime)
     VALUES ($1, 'in', $2, 'image', '', 'received', $3, 'image/jpeg') RETURNING id`,
    [contactId, wamid(), mediaId],
  );
  return (row as { id: string }).id;
}

const messagesOf = async (contactId: string) => {
  const answer = await call(adviser.cookie, 'GET', `/api/admin/contacts/${contactId}/whatsapp/messages`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as MessagePage).messages;
};

describe('an id that is not one of ours', () => {
  it('is a Spanish 404 on every WhatsApp route, never a query (nor a 503)', async () => {
    const contact = 'No encontramos este prospecto.';
    const quickReply = 'No encontramos esta respuesta rápida.';
    for (const id of ['-'.repeat(36), 'a'.repeat(36), 'abc', `${randomUUID().toUpperCase()}`]) {
      const routes: [string, string, unknown, string][] = [
        ['GET', `/api/admin/contacts/${id}/whatsapp`, undefined, contact],
        ['GET', `/api/admin/contacts/${id}/whatsapp/messages`, undefined, contact],
        [
          'POST',
          `/api/admin/contacts/${id}/whatsapp/messages`,
          { kind: 'text', text: 'Hola', idempotencyKey: randomUUID() },
          contact,
        ],
        ['POST', `/api/admin/contacts/${id}/whatsapp/read`, undefined, contact],
        ['GET', `/api/admin/whatsapp/media/${id}`, undefined, 'Este mensaje no tiene archivo.'],
        ['PATCH', `/api/admin/whatsapp/quick-replies/${id}`, { title: 'Saludo' }, quickReply],
        ['DELETE', `/api/admin/whatsapp/quick-replies/${id}`, undefined, quickReply],
      ];
      for (const [method, path, body, message] of routes) {
        const answer = await call(admin, method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(await answer.json(), `${method} ${path}`).toEqual({ error: message });
      }
      const list = await call(admin, 'GET', `/api/admin/whatsapp/quick-replies?contact=${id}`);
      expect(list.status).toBe(400);
    }
    expect(server.output()).not.toMatch(/invalid input syntax for type uuid|22P02/);
  });

  it('echoed by a status (biz_opaque_callback_data) keeps the status for later, never fails its delivery', async () => {
    const early = wamid();
    await postWebhook(server.url, statusPayload({ id: early, status: 'delivered', callback: '-'.repeat(36) }));
    await eventually(
      () => countRows('whatsapp_pending_statuses', 'wa_message_id = $1', [early]),
      (count) => count === 1,
      'the pending status',
    );
    expect(server.output()).not.toMatch(/invalid input syntax for type uuid|22P02/);
  });
});

describe('GET /api/admin/whatsapp/media/{messageId}', () => {
  const expectSafeHeaders = (answer: Response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer.headers.get(name), name).toBe(value);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('is never kept by the browser nor framed, and has the headers of every answer, fetched or kept', async () => {
    const id = await photo('3038472910293841');
    const fetched = await call(adviser.cookie, 'GET', `/api/admin/whatsapp/media/${id}`);
    expect(fetched.status).toBe(200);
    expectSafeHeaders(fetched);
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(MEDIA_BYTES);
    expect(await countRows('whatsapp_media_cache', 'message_id = $1', [id])).toBe(1);
    const kept = await call(adviser.cookie, 'GET', `/api/admin/whatsapp/media/${id}`);
    expect(kept.status).toBe(200);
    expectSafeHeaders(kept);
    expect(Buffer.from(await kept.arrayBuffer())).toEqual(MEDIA_BYTES);
  });

  it('serves a fetched file even when keeping it fails, and logs it', async () => {
    const id = await photo('3038472910293842');
    await sql(`CREATE FUNCTION refuse_media_cache() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'media cache refused'; END $$`);
    await sql(`CREATE TRIGGER refuse_media_cache BEFORE INSERT ON whatsapp_media_cache
               FOR EACH ROW EXECUTE FUNCTION refuse_media_cache()`);
    try {
      const answer = await call(adviser.cookie, 'GET', `/api/admin/whatsapp/media/${id}`);
      expect(answer.status).toBe(200);
      expectSafeHeaders(answer);
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(MEDIA_BYTES);
    } finally {
      await sql('DROP TRIGGER refuse_media_cache ON whatsapp_media_cache');
      await sql('DROP FUNCTION refuse_media_cache()');
    }
    expect(await countRows('whatsapp_media_cache', 'message_id = $1', [id])).toBe(0);
    await eventually(
      async () => server.output(),
      (output) => /"event":"whatsapp_media_not_kept".*media cache refused/.test(output),
      'the warning',
    );
  });

  it('never asks the platform for a media id that is not a number: kept as a message without its file', async () => {
    const from = '5219997770001';
    const odd = ['../../106540352242922/messages', 'media-abc', '1'.repeat(65)];
    for (const id of odd) {
      await postWebhook(server.url, inboundPayload({ from, type: 'image', content: { id, caption: `Foto ${id}` } }));
    }
    const rows = await eventually(
      () =>
        sql<{ contact_id: string; kind: string; media_id: string | null }>(
          `SELECT contact_id, kind, media_id FROM whatsapp_messages WHERE raw ->> 'from' = $1`,
          [from],
        ),
      (list) => list.length === odd.length,
      'the photos',
    );
    expect(rows.map((row) => [row.kind, row.media_id])).toEqual(odd.map(() => ['image', null]));
    const shown = await messagesOf(rows[0]?.contact_id as string);
    expect(shown.map((message) => message.media)).toEqual(odd.map(() => null));
    expect(shown.map((message) => message.body).sort()).toEqual(odd.map((id) => `Foto ${id}`).sort());

    // One stored before this check: refused before any request.
    const before = platform.mediaRequests.length;
    const legacy = await photo('media-1');
    const answer = await call(adviser.cookie, 'GET', `/api/admin/whatsapp/media/${legacy}`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: string }).error).toMatch(/no tiene un archivo válido/);
    expect(platform.mediaRequests.slice(before)).toEqual([]);
  });

  it('sends the token only over https when the API is https: a plain-http media URL is never fetched', async () => {
    const secure = await startFakePlatform({ tls: true });
    const plain = await startFakePlatform();
    const other = await startServer({
      ...whatsappEnv(secure),
      NODE_EXTRA_CA_CERTS: secure.caFile as string,
      WHATSAPP_MEDIA_HOSTS: new URL(plain.url).host,
    });
    try {
      // Over https from the API's own host: served.
      const fine = await photo('3038472910293843');
      const served = await call(admin, 'GET', `/api/admin/whatsapp/media/${fine}`, undefined, other.url);
      expect(served.status, other.output().slice(-2000)).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(MEDIA_BYTES);

      // A configured media host, but in clear text: refused before any request to it.
      secure.mediaUrlFor('3038472910293844', `${plain.url}/media/3038472910293844`);
      const clear = await photo('3038472910293844');
      const refused = await call(admin, 'GET', `/api/admin/whatsapp/media/${clear}`, undefined, other.url);
      expect(refused.status).toBe(502);
      expect(((await refused.json()) as { error: string }).error).toMatch(/no es de WhatsApp/);
      expect(secure.mediaRequests).toContain('GET /v23.0/3038472910293844');
      expect(plain.mediaRequests).toEqual([]);
    } finally {
      await other.stop();
      await secure.close();
      await plain.close();
    }
  });
});

describe("the platform's own words", () => {
  const ENGLISH = 'Generic user error: the recipient cannot be reached';

  it('never reach the team: an unknown refusal shows a Spanish reason with its code, the title goes to the log', async () => {
    const contactId = await quietContact('Iris May');
    platform.script({ status: 400, code: 135000, message: ENGLISH });
    const answer = await call(admin, 'POST', `/api/admin/contacts/${contactId}/whatsapp/messages`, {
      kind: 'template',
      template: 'primer_contacto',
      idempotencyKey: randomUUID(),
    });
    const { message } = (await answer.json()) as SendMessageAnswer;
    const shown = await eventually(
      async () => (await messagesOf(contactId)).find((each) => each.id === message.id),
      (each) => each?.status === 'failed',
      'the refusal',
    );
    expect(shown?.error).toEqual({ code: 135000, reason: 'WhatsApp no aceptó el mensaje (código 135000).' });
    await eventually(
      async () => server.output(),
      (output) => output.includes('"event":"whatsapp_send_refused"') && output.includes(ENGLISH),
      'the logged title',
    );
  });

  it('never reach the team from a failed status either', async () => {
    const contactId = await quietContact('Eva Dzul');
    const id = wamid();
    await sql(
      `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status)
       VALUES ($1, 'out', $2, 'text', 'Hola Eva', 'sent')`,
      [contactId, id],
    );
    await postWebhook(server.url, statusPayload({ id, status: 'failed', error: { code: 135001, title: ENGLISH } }));
    const shown = await eventually(
      async () => (await messagesOf(contactId)).find((each) => each.body === 'Hola Eva'),
      (each) => each?.status === 'failed',
      'the failed status',
    );
    expect(shown?.error).toEqual({ code: 135001, reason: 'WhatsApp no aceptó el mensaje (código 135001).' });
    await eventually(
      async () => server.output(),
      (output) => output.includes('"event":"whatsapp_status_failed"') && output.includes(ENGLISH),
      'the logged title',
    );
  });
});

describe('their text, as they wrote it (issue #38, item 6)', () => {
  /** Every bidirectional control: they reorder what the team reads (`factura\u202Efdp.exe` shows "facturaexe.pdf"). */
  const BIDI = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
  const ANY_BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

  it('reaches the panel without bidirectional controls: texts, captions, file names, replies, places, cards and the profile name', async () => {
    const from = '5219990038006';
    const cases: { type: string; content?: Record<string, unknown>; extra?: Record<string, unknown> }[] = [
      { type: 'text', content: { body: `Hola${BIDI}, ¿precio?` } },
      {
        type: 'document',
        content: { id: '1038472910293861', mime_type: 'application/pdf', filename: 'factura\u202Efdp.exe' },
      },
      {
        type: 'document',
        content: {
          id: '1038472910293862',
          mime_type: 'application/pdf',
          filename: 'plano\u2067fdp.exe\u2069',
          caption: `Mi \u202Eplano`,
        },
      },
      { type: 'image', content: { id: '1038472910293863', mime_type: 'image/jpeg', caption: `Terreno\u200F${BIDI}` } },
      { type: 'button', content: { payload: 'SI', text: `Sí\u202E, quiero` } },
      {
        type: 'interactive',
        content: {
          type: 'list_reply',
          list_reply: { id: 'm1', title: `Ceiba\u202E`, description: `2 rec\u2066ámaras` },
        },
      },
      {
        type: 'location',
        content: { latitude: 20.97, longitude: -89.62, name: `Mi\u202E terreno`, address: `Conkal\u061C, Yucatán` },
      },
      {
        type: 'contacts',
        extra: { contacts: [{ name: { formatted_name: `Ana\u202E Pérez` }, phones: [{ phone: '+52 999 555 0000' }] }] },
      },
    ];
    let second = 1_760_000_000;
    for (const entry of cases) {
      second += 1;
      const payload = inboundPayload({
        from,
        name: `Nora\u202E Canul${BIDI}`,
        type: entry.type,
        timestamp: second,
        ...(entry.content ? { content: entry.content } : {}),
        ...(entry.extra ? { extra: entry.extra } : {}),
      });
      expect((await postWebhook(server.url, payload)).status).toBe(200);
    }
    const [contact] = await eventually(
      () => sql<{ id: string; name: string }>(`SELECT id, name FROM contacts WHERE phone = '+529990038006'`),
      (rows) => rows.length === 1,
      'the contact',
    );
    expect(contact?.name).toBe('Nora Canul');
    const messages = await eventually(
      () => messagesOf((contact as { id: string }).id),
      (list) => list.length === cases.length,
      'the messages',
    );
    expect(JSON.stringify(messages)).not.toMatch(ANY_BIDI);
    const oldestFirst = [...messages].reverse();
    expect(oldestFirst.map((message) => message.body)).toEqual([
      'Hola, ¿precio?',
      'facturafdp.exe',
      'Mi plano',
      'Terreno',
      'Sí, quiero',
      'Ceiba — 2 recámaras',
      'Mi terreno, Conkal, Yucatán',
      'Ana Pérez: +52 999 555 0000',
    ]);
    expect(oldestFirst.map((message) => message.media?.filename ?? null).slice(1, 3)).toEqual([
      'facturafdp.exe',
      'planofdp.exe',
    ]);
    expect(oldestFirst[6]?.location).toMatchObject({ name: 'Mi terreno', address: 'Conkal, Yucatán' });
    const inbox = await call(admin, 'GET', '/api/admin/whatsapp/conversations?filter=all');
    const { conversations } = (await inbox.json()) as ConversationPage;
    const listed = conversations.find((conversation) => conversation.contactId === contact?.id);
    expect(listed).toMatchObject({ name: 'Nora Canul', lastMessage: { preview: 'Ana Pérez: +52 999 555 0000' } });
  });
});
