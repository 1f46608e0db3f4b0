import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDelivery } from '../../src/server/whatsapp/webhook.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import {
  APP_SECRET,
  type FakePlatform,
  inboundPayload,
  postWebhook,
  sign,
  startFakePlatform,
  statusPayload,
  VERIFY_TOKEN,
  wamid,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';
import { webhookEventsProcessed } from '../support/whatsapp-queue.ts';

/** Issue #27, item 1: the Cloud API's webhook, received, signed, stored once, processed from the queue. */
let server: RunningServer;
let platform: FakePlatform;

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform));
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

/** Every stored delivery processed by the queue. */
const processed = () => webhookEventsProcessed(server);

describe('GET /api/whatsapp/webhook (the verification handshake)', () => {
  it('answers the challenge as text for our verify token, 403 otherwise', async () => {
    const ask = (query: string) => fetch(`${server.url}/api/whatsapp/webhook?${query}`);
    const ok = await ask(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    expect((await ask('hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1')).status).toBe(403);
    expect((await ask(`hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)).status).toBe(403);
    expect((await ask(`hub.mode=subscribe&hub.challenge=1`)).status).toBe(403);
  });
});

describe('POST /api/whatsapp/webhook', () => {
  it('accepts only the HMAC-SHA256 of the raw body (accents and emoji included); one byte changed is 401', async () => {
    const raw = JSON.stringify(
      inboundPayload({
        from: '5219990001111',
        name: 'José Ñúñez 🏡',
        content: { body: 'Quiero información 🏠 ¿Precio?' },
      }),
    );
    const signature = sign(raw);
    const post = (body: string | Buffer, header: string | null) =>
      fetch(`${server.url}/api/whatsapp/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(header ? { 'X-Hub-Signature-256': header } : {}) },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
    const bytes = Buffer.from(raw);
    const changed = Buffer.from(bytes);
    // One byte of the emoji's UTF-8 changed: the JSON still parses, the signature must not.
    const at = changed.indexOf(Buffer.from('🏠'));
    changed[at + 3] = (changed[at + 3] as number) ^ 1;
    expect((await post(changed, signature)).status).toBe(401);
    expect((await post(raw, null)).status).toBe(401);
    expect((await post(raw, sign(raw, `${APP_SECRET}x`))).status).toBe(401);
    expect((await post(raw, signature.replace('sha256=', 'sha1='))).status).toBe(401);
    // Re-serialised JSON (accents escaped) is another body: refused.
    const escaped = raw.replace(/[^\x00-\x7f]/gu, (char) =>
      [...char].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    );
    expect((await post(escaped, signature)).status).toBe(401);
    expect(await countRows('whatsapp_webhook_events')).toBe(0);

    const accepted = await post(raw, signature);
    expect(accepted.status).toBe(200);
    await processed();
    const [message] = await sql<{ body: string; name: string }>(
      `SELECT m.body, c.name FROM whatsapp_messages m JOIN contacts c ON c.id = m.contact_id WHERE c.phone = '+529990001111'`,
    );
    expect(message).toEqual({ body: 'Quiero información 🏠 ¿Precio?', name: 'José Ñúñez 🏡' });
  });

  it('stores every type of message once, with its raw JSON, and a new number becomes a contact with the ad as attribution', async () => {
    const from = '5219990002222';
    const referral = {
      source_url: 'https://fb.me/3cr4Wqqkv',
      source_id: '120212345678901234',
      source_type: 'ad',
      headline: 'Casas modulares en Mérida',
      body: 'Desde 450 mil',
      media_type: 'image',
      image_url: 'https://scontent.xx.fbcdn.net/ad.jpg',
      ctwa_clid: 'ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMv-_zfUQ2a',
    };
    const cases: {
      type: string;
      content?: Record<string, unknown>;
      extra?: Record<string, unknown>;
      kind: string;
      body: string;
    }[] = [
      { type: 'text', content: { body: 'Vi su anuncio' }, extra: { referral }, kind: 'text', body: 'Vi su anuncio' },
      {
        type: 'image',
        content: { id: '1038472910293841', mime_type: 'image/jpeg', sha256: 'x', caption: 'Mi terreno' },
        kind: 'image',
        body: 'Mi terreno',
      },
      {
        type: 'audio',
        content: { id: '1038472910293842', mime_type: 'audio/ogg; codecs=opus', voice: true },
        kind: 'audio',
        body: '',
      },
      { type: 'video', content: { id: '1038472910293843', mime_type: 'video/mp4' }, kind: 'video', body: '' },
      {
        type: 'document',
        content: { id: '1038472910293844', mime_type: 'application/pdf', filename: 'escrituras.pdf' },
        kind: 'document',
        body: 'escrituras.pdf',
      },
      {
        type: 'sticker',
        content: { id: '1038472910293845', mime_type: 'image/webp', animated: false },
        kind: 'sticker',
        body: '',
      },
      {
        type: 'location',
        content: { latitude: 20.97, longitude: -89.62, name: 'Mi terreno', address: 'Conkal, Yucatán' },
        kind: 'location',
        body: 'Mi terreno, Conkal, Yucatán',
      },
      {
        type: 'contacts',
        extra: {
          contacts: [
            {
              name: { formatted_name: 'Ana Pérez', first_name: 'Ana' },
              phones: [{ phone: '+52 999 555 0000', type: 'CELL' }],
            },
          ],
        },
        kind: 'contacts',
        body: 'Ana Pérez: +52 999 555 0000',
      },
      { type: 'reaction', content: { message_id: 'wamid.ours', emoji: '👍' }, kind: 'reaction', body: '👍' },
      {
        type: 'button',
        content: { payload: 'SI_VISITA', text: 'Sí, quiero visitar' },
        extra: { context: { from: '529991112233', id: 'wamid.tpl' } },
        kind: 'button',
        body: 'Sí, quiero visitar',
      },
      {
        type: 'interactive',
        content: { type: 'list_reply', list_reply: { id: 'm1', title: 'Modelo Ceiba', description: '2 recámaras' } },
        kind: 'interactive',
        body: 'Modelo Ceiba — 2 recámaras',
      },
      {
        type: 'interactive',
        content: { type: 'button_reply', button_reply: { id: 'b1', title: 'Llámenme' } },
        kind: 'interactive',
        body: 'Llámenme',
      },
      {
        type: 'unsupported',
        extra: { errors: [{ code: 131051, title: 'Message type unknown' }] },
        kind: 'unsupported',
        body: '',
      },
      { type: 'order', content: { catalog_id: '1' }, kind: 'unsupported', body: '' },
    ];
    const ids: string[] = [];
    let second = 1_750_000_000;
    for (const entry of cases) {
      const id = wamid();
      ids.push(id);
      second += 1;
      const payload = inboundPayload({
        from,
        name: 'Lucía Canché',
        id,
        type: entry.type,
        timestamp: second,
        ...(entry.content ? { content: entry.content } : {}),
        ...(entry.extra ? { extra: entry.extra } : {}),
      });
      expect((await postWebhook(server.url, payload)).status).toBe(200);
    }
    await processed();
    const rows = await sql<{
      wa_message_id: string;
      kind: string;
      body: string;
      media_id: string | null;
      raw: { id: string };
    }>(
      `SELECT wa_message_id, kind, body, media_id, raw FROM whatsapp_messages WHERE wa_message_id = ANY($1) ORDER BY created_at`,
      [ids],
    );
    expect(rows.map((row) => [row.kind, row.body])).toEqual(cases.map((entry) => [entry.kind, entry.body]));
    expect(rows.every((row, index) => row.raw.id === ids[index])).toBe(true);
    expect(rows.filter((row) => row.media_id).map((row) => row.media_id)).toEqual([
      '1038472910293841',
      '1038472910293842',
      '1038472910293843',
      '1038472910293844',
      '1038472910293845',
    ]);
    const [contact] = await sql<{ name: string; first_touch: Record<string, string>; state: string }>(
      `SELECT name, first_touch, state FROM contacts WHERE phone = '+529990002222'`,
    );
    expect(contact).toEqual({
      name: 'Lucía Canché',
      state: 'nuevo',
      first_touch: {
        utm_source: 'whatsapp',
        utm_medium: 'anuncio',
        utm_content: '120212345678901234',
        utm_campaign: 'Casas modulares en Mérida',
        referrer: 'https://fb.me/3cr4Wqqkv',
        // The click's id, for the conversions told back to Meta (issue #43).
        ctwa_clid:
          'ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMv-_zfUQ2a',
      },
    });
    const [conversation] = await sql<{ unread_count: number; last_preview: string; wa_id: string }>(
      `SELECT unread_count, last_preview, wa_id FROM whatsapp_conversations w JOIN contacts c ON c.id = w.contact_id
       WHERE c.phone = '+529990002222'`,
    );
    // The last message is ours: someone who wrote from an ad is asked the forms' consent (issue #43, decision 0083).
    expect(conversation).toEqual({
      unread_count: cases.length,
      last_preview: '¡Gracias por escribirnos! Un asesor te responde en breve.',
      wa_id: from,
    });
  });

  it('keeps an ad’s long headline cut at a whole character, and the delivery’s other messages with it', async () => {
    // An emoji across the 200th character of the headline: cut inside it, the attribution was no JSON PostgreSQL
    // takes, and the whole delivery (another person's message too) failed at every retry.
    const headline = `${'Casa '.repeat(39)}ABCD🏠 lista en seis semanas`;
    const delivery = inboundPayload({
      from: '5219990007171',
      name: 'Luis Canul',
      content: { body: 'Vi su anuncio largo' },
      extra: { referral: { source_url: 'https://fb.me/x', source_id: '1202', source_type: 'ad', headline } },
    });
    const other = inboundPayload({ from: '5219990007272', name: 'Ana Poot', content: { body: 'Buenas tardes' } });
    const value = delivery.entry[0]?.changes[0]?.value as unknown as { messages: unknown[]; contacts: unknown[] };
    const otherValue = other.entry[0]?.changes[0]?.value as unknown as { messages: unknown[]; contacts: unknown[] };
    value.messages.push(...otherValue.messages);
    value.contacts.push(...otherValue.contacts);
    expect((await postWebhook(server.url, delivery)).status).toBe(200);
    await processed();
    expect(await countRows('whatsapp_messages', `body IN ('Vi su anuncio largo', 'Buenas tardes')`)).toBe(2);
    const [contact] = await sql<{ first_touch: Record<string, string> }>(
      `SELECT first_touch FROM contacts WHERE phone = '+529990007171'`,
    );
    expect(contact?.first_touch.utm_campaign).toBe(`${'Casa '.repeat(39)}ABCD🏠`);
  });

  it('reads only our number’s messages: another number of the business account writes nothing here', async () => {
    const delivery = inboundPayload({
      from: '5219990007373',
      name: 'Otra Línea',
      content: { body: 'Para la otra línea' },
    });
    const value = delivery.entry[0]?.changes[0]?.value as unknown as { metadata: { phone_number_id: string } };
    value.metadata.phone_number_id = '109876543210987';
    expect((await postWebhook(server.url, delivery)).status).toBe(200);
    await processed();
    expect(await countRows('whatsapp_messages', `body = 'Para la otra línea'`)).toBe(0);
    expect(await countRows('contacts', `phone = '+529990007373'`)).toBe(0);
  });

  it('joins a known contact by any format of its number, and counts the message as activity', async () => {
    const [known] = await sql<{ id: string; last_activity_at: Date }>(
      `INSERT INTO contacts (phone, name, is_buyer, last_activity_at) VALUES ('+529990003333', 'Marta Dzul', true, now() - interval '3 days')
       RETURNING id, last_activity_at`,
    );
    // WhatsApp's id of a Mexican mobile keeps the old "1": 52 1 999 000 3333.
    await postWebhook(
      server.url,
      inboundPayload({ from: '5219990003333', name: 'Martita', content: { body: 'Hola de nuevo' } }),
    );
    await postWebhook(
      server.url,
      inboundPayload({ from: '529990003333', name: 'Martita', content: { body: 'Sigo aquí' } }),
    );
    await processed();
    const rows = await sql<{ contact_id: string }>(
      `SELECT contact_id FROM whatsapp_messages WHERE body IN ('Hola de nuevo', 'Sigo aquí')`,
    );
    expect(rows.map((row) => row.contact_id)).toEqual([known?.id, known?.id]);
    const [contact] = await sql<{ name: string; last_activity_at: Date }>(
      'SELECT name, last_activity_at FROM contacts WHERE id = $1',
      [known?.id],
    );
    expect(contact?.name).toBe('Marta Dzul');
    expect(new Date(contact?.last_activity_at as Date).getTime()).toBeGreaterThan(
      new Date(known?.last_activity_at as Date).getTime(),
    );
    expect(await countRows('contacts', `phone = '+529990003333'`)).toBe(1);
  });

  it('stores a message once however it is replayed: at once, concurrently, or later', async () => {
    const payload = inboundPayload({ from: '5219990004444', name: 'Pedro Uc', content: { body: 'Una sola vez' } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => postWebhook(server.url, payload)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    await processed();
    expect((await postWebhook(server.url, payload)).status).toBe(200);
    await processed();
    expect(await countRows('whatsapp_messages', `body = 'Una sola vez'`)).toBe(1);
    expect(await countRows('contacts', `phone = '+529990004444'`)).toBe(1);
    const [conversation] = await sql<{ unread_count: number }>(
      `SELECT unread_count FROM whatsapp_conversations w JOIN contacts c ON c.id = w.contact_id WHERE c.phone = '+529990004444'`,
    );
    expect(conversation?.unread_count).toBe(1);
  });

  it('keeps a replayed signed delivery once: 30 posts of the same bytes, at once and later, each answered 200, leave one event and one message', async () => {
    // Issue #38, item 7: a captured delivery (its signature valid for its bytes) posted again and again.
    const raw = JSON.stringify(
      inboundPayload({ from: '5219990004545', name: 'Ramiro Poot', content: { body: 'Repetido 30 veces' } }),
    );
    const status = JSON.stringify(statusPayload({ id: wamid(), status: 'delivered' }));
    const at = await Promise.all(Array.from({ length: 15 }, () => postWebhook(server.url, raw)));
    expect(at.map((answer) => answer.status)).toEqual(Array(15).fill(200));
    await processed();
    for (let post = 0; post < 15; post += 1) {
      // 200 each time: the platform stops retrying what it sees answered.
      expect((await postWebhook(server.url, raw)).status).toBe(200);
    }
    for (let post = 0; post < 30; post += 1) expect((await postWebhook(server.url, status)).status).toBe(200);
    await processed();
    expect(await countRows('whatsapp_webhook_events', 'body = $1', [raw])).toBe(1);
    expect(await countRows('whatsapp_webhook_events', 'body = $1', [status])).toBe(1);
    expect(await countRows('whatsapp_messages', `body = 'Repetido 30 veces'`)).toBe(1);
    // The same message in other bytes (another batch of Meta's) is another event, its message still once.
    const rebatched = raw.replace('"Ramiro Poot"', '"Ramiro Poot Chi"');
    expect((await postWebhook(server.url, rebatched)).status).toBe(200);
    await processed();
    expect(await countRows('whatsapp_webhook_events', 'body = $1', [rebatched])).toBe(1);
    expect(await countRows('whatsapp_messages', `body = 'Repetido 30 veces'`)).toBe(1);
  });

  it('moves our message forward only, whatever order the statuses come in; a failure keeps its code and a Spanish reason', async () => {
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529990005555', 'Rosa Pech', true) RETURNING id`,
    );
    const ours = wamid();
    const failing = wamid();
    await sql(
      `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status)
       VALUES ($1, 'out', $2, 'text', 'Hola Rosa', 'sent'), ($1, 'out', $3, 'text', 'Otro', 'sent')`,
      [contact?.id, ours, failing],
    );
    for (const status of ['read', 'delivered', 'sent', 'delivered'] as const) {
      await postWebhook(server.url, statusPayload({ id: ours, status }));
    }
    await postWebhook(
      server.url,
      statusPayload({ id: failing, status: 'failed', error: { code: 131026, title: 'Message undeliverable' } }),
    );
    // A status of a message we do not know yet waits for it.
    const early = wamid();
    await postWebhook(server.url, statusPayload({ id: early, status: 'delivered' }));
    await processed();
    const rows = await sql<{
      wa_message_id: string;
      status: string;
      error_code: number | null;
      error_reason: string | null;
    }>('SELECT wa_message_id, status, error_code, error_reason FROM whatsapp_messages WHERE wa_message_id = ANY($1)', [
      [ours, failing],
    ]);
    expect(rows.find((row) => row.wa_message_id === ours)).toMatchObject({ status: 'read', error_code: null });
    expect(rows.find((row) => row.wa_message_id === failing)).toMatchObject({
      status: 'failed',
      error_code: 131026,
      error_reason: expect.stringContaining('no se pudo entregar'),
    });
    expect(await countRows('whatsapp_pending_statuses', 'wa_message_id = $1', [early])).toBe(1);
  });

  it('marks an opt-out (BAJA, ALTO, STOP in any case, accents ignored) once, in the history and the activity log', async () => {
    await postWebhook(
      server.url,
      inboundPayload({ from: '5219990006666', name: 'Luis Chan', content: { body: 'Información por favor' } }),
    );
    await processed();
    const optedOut = async () =>
      (
        await sql<{ opted_out_at: Date | null }>(
          `SELECT opted_out_at FROM whatsapp_conversations w JOIN contacts c ON c.id = w.contact_id WHERE c.phone = '+529990006666'`,
        )
      )[0]?.opted_out_at;
    expect(await optedOut()).toBeNull();
    await postWebhook(server.url, inboundPayload({ from: '5219990006666', content: { body: ' ¡Bája! ' } }));
    await postWebhook(server.url, inboundPayload({ from: '5219990006666', content: { body: 'stop' } }));
    await processed();
    expect(await optedOut()).not.toBeNull();
    expect(await countRows('contact_events', `kind = 'whatsapp_opt_out'`)).toBe(1);
    expect(await countRows('activity_log', `kind = 'whatsapp_opt_out' AND summary LIKE 'Luis Chan%'`)).toBe(1);
    // "Baja California" is not an opt-out.
    await postWebhook(server.url, inboundPayload({ from: '5219990007777', content: { body: 'Baja California' } }));
    await processed();
    expect(await countRows('whatsapp_conversations', 'opted_out_at IS NOT NULL')).toBe(1);
  });

  it('honours an opt-out with courtesy, in capitals or full width, and a reply button "Alto"; never a sentence that contains the word', async () => {
    // Issue #38, item 8: the list is src/data/whatsapp-opt-out.ts.
    const cases: { from: string; type?: string; content: Record<string, unknown>; opts: boolean }[] = [
      { from: '5219990008001', content: { body: 'Baja por favor' }, opts: true },
      { from: '5219990008002', content: { body: 'BAJA, gracias' }, opts: true },
      { from: '5219990008003', content: { body: 'ＳＴＯＰ' }, opts: true },
      {
        from: '5219990008004',
        type: 'interactive',
        content: { type: 'button_reply', button_reply: { id: 'opt-out', title: 'Alto' } },
        opts: true,
      },
      { from: '5219990008005', content: { body: 'Hola, denme de baja 🙏' }, opts: true },
      { from: '5219990008006', content: { body: 'no me des de baja' }, opts: false },
      { from: '5219990008007', content: { body: '¿Cómo me doy de baja?' }, opts: false },
      {
        from: '5219990008008',
        type: 'interactive',
        content: { type: 'list_reply', list_reply: { id: 'm1', title: 'Modelo Ceiba', description: 'Baja' } },
        opts: false,
      },
    ];
    for (const entry of cases) {
      const payload = inboundPayload({
        from: entry.from,
        name: `Opción ${entry.from.slice(-1)}`,
        content: entry.content,
        ...(entry.type ? { type: entry.type } : {}),
      });
      expect((await postWebhook(server.url, payload)).status).toBe(200);
    }
    await processed();
    const rows = await sql<{ wa_id: string; opted: boolean; lines: number }>(
      `SELECT w.wa_id, w.opted_out_at IS NOT NULL AS opted,
              (SELECT count(*)::int FROM contact_events e WHERE e.contact_id = w.contact_id AND e.kind = 'whatsapp_opt_out') AS lines
       FROM whatsapp_conversations w WHERE w.wa_id = ANY($1) ORDER BY w.wa_id`,
      [cases.map((entry) => entry.from)],
    );
    expect(rows).toEqual(cases.map((entry) => ({ wa_id: entry.from, opted: entry.opts, lines: entry.opts ? 1 : 0 })));
    const [alto] = await sql<{ to_value: string }>(
      `SELECT e.to_value FROM contact_events e JOIN whatsapp_conversations w ON w.contact_id = e.contact_id
       WHERE w.wa_id = '5219990008004' AND e.kind = 'whatsapp_opt_out'`,
    );
    expect(alto?.to_value).toBe('Alto');
  });

  it('refuses a body that is not JSON (400) and stores nothing', async () => {
    const raw = '{"object": "whatsapp_business_account", ';
    const answer = await fetch(`${server.url}/api/whatsapp/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': sign(raw) },
      body: raw,
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toMatch(/JSON/);
  });

  it('answers each of many deliveries arriving together by its own merits: the malformed and the forged refused and not stored, every other stored and processed once', async () => {
    const before = await countRows('whatsapp_webhook_events');
    const good = Array.from({ length: 24 }, (_, index) =>
      JSON.stringify(
        inboundPayload({
          from: `52199900${String(index).padStart(5, '0')}`,
          name: `Vecina ${index} Ñ`,
          content: { body: `Juntos ${index} 🏠` },
        }),
      ),
    );
    const send = (body: string | Uint8Array<ArrayBuffer>, signature: string) =>
      fetch(`${server.url}/api/whatsapp/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
        body,
      });
    const notJson = '{"object": "whatsapp_business_account", "entry": [';
    const notUtf8 = Buffer.concat([Buffer.from('{"object": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const deliveries: { body: string | Uint8Array<ArrayBuffer>; signature: string; status: number }[] = [
      ...good.map((body) => ({ body, signature: sign(body), status: 200 })),
      { body: notJson, signature: sign(notJson), status: 400 },
      { body: new Uint8Array(notUtf8), signature: sign(notUtf8), status: 400 },
      { body: good[0] as string, signature: sign(`${good[0]} `), status: 401 },
      // The same delivery twice more, at once: stored once (decision 0050), answered 200 each time.
      { body: good[1] as string, signature: sign(good[1] as string), status: 200 },
      { body: good[1] as string, signature: sign(good[1] as string), status: 200 },
    ];
    // Shuffled, all in flight at once.
    const order = deliveries.map((_, index) => index).sort(() => Math.random() - 0.5);
    const answers = await Promise.all(
      order.map((index) => {
        const delivery = deliveries[index] as (typeof deliveries)[number];
        return send(delivery.body, delivery.signature);
      }),
    );
    for (const [position, index] of order.entries()) {
      expect(answers[position]?.status, `delivery ${index}`).toBe(deliveries[index]?.status);
    }
    expect(await countRows('whatsapp_webhook_events')).toBe(before + 24);
    await processed();
    expect(await countRows('whatsapp_messages', `body LIKE 'Juntos %'`)).toBe(24);
    expect(await countRows('whatsapp_messages', `body = 'Juntos 1 🏠'`)).toBe(1);
    expect(await countRows('contacts', `name LIKE 'Vecina % Ñ'`)).toBe(24);
  });
});

describe('the acknowledgement: a group commit (storeDelivery)', () => {
  const delivery = (index: number, body = `Grupo ${index}`) =>
    JSON.stringify(
      inboundPayload({ from: `52199911${String(index).padStart(5, '0')}`, name: 'Grupo', content: { body } }),
    );

  it('stores deliveries that arrive together in one INSERT, answering each only once its row is committed', async () => {
    const bodies = Array.from({ length: 20 }, (_, index) => delivery(index));
    const stored = await Promise.all(bodies.map((body) => storeDelivery(body)));
    expect(stored).toHaveLength(20);
    // Each answer came after the commit: its row is there for any other connection to read.
    const rows = await sql<{ received_at: Date; n: number }>(
      `SELECT received_at, count(*)::int AS n FROM whatsapp_webhook_events WHERE body = ANY($1) GROUP BY received_at`,
      [bodies],
    );
    // One transaction: one received_at (its now()) for the twenty.
    expect(rows.map((row) => row.n)).toEqual([20]);
    await Promise.all(stored.map(({ jobs }) => jobs));
    await processed();
    expect(await countRows('whatsapp_messages', `body LIKE 'Grupo %'`)).toBe(20);
  });

  it('keeps a body that comes twice in one group once, and answers both (decision 0050)', async () => {
    const body = delivery(300, 'Dos veces en un grupo');
    const others = [delivery(301), delivery(302)];
    const outcomes = await Promise.allSettled([body, ...others, body].map(storeDelivery));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(4).fill('fulfilled'));
    const rows = await sql<{ received_at: Date; n: number }>(
      `SELECT received_at, count(*)::int AS n FROM whatsapp_webhook_events WHERE body = ANY($1) GROUP BY received_at`,
      [[body, ...others]],
    );
    // One group (one received_at), three rows.
    expect(rows.map((row) => row.n)).toEqual([3]);
    await processed();
    expect(await countRows('whatsapp_messages', `body = 'Dos veces en un grupo'`)).toBe(1);
  });

  it('a delivery the database refuses costs the others of its group nothing: they are stored, it alone fails', async () => {
    // A NUL character: valid UTF-8 that PostgreSQL's text refuses (the endpoint's JSON check never lets one through).
    const bodies = Array.from({ length: 10 }, (_, index) => delivery(100 + index, `Con vecino roto ${index}`));
    const broken = `${delivery(199, 'roto')}\u0000`;
    const outcomes = await Promise.allSettled([...bodies.slice(0, 5), broken, ...bodies.slice(5)].map(storeDelivery));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      ...Array(5).fill('fulfilled'),
      'rejected',
      ...Array(5).fill('fulfilled'),
    ]);
    expect(await countRows('whatsapp_webhook_events', 'body = ANY($1)', [bodies])).toBe(10);
    expect(await countRows('whatsapp_webhook_events', `body LIKE '%roto"%'`)).toBe(0);
    await processed();
    expect(await countRows('whatsapp_messages', `body LIKE 'Con vecino roto %'`)).toBe(10);
  });
});
