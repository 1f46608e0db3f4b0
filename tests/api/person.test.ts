import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '../../src/data/legal.ts';
import { cookieOf, memberRequest } from '../support/admin.ts';
import { estimate, partnerApplication, preFilter, quickQuote } from '../support/payloads.ts';
import type { SmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';
import { startVoiceSite, VOICE_SECRET, vapiReport } from '../support/vapi.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  statusPayload,
  wamid,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';
import { webhookEventsProcessed } from '../support/whatsapp-queue.ts';

/** Issue #14: consent on record with each lead, and the person's rights of access and cancellation (ARCO). */
let server: RunningServer;
let smtp: SmtpReceiver;
let admin: string;
let platform: FakePlatform;

beforeAll(async () => {
  platform = await startFakePlatform();
  ({ server, smtp, admin } = await startVoiceSite(whatsappEnv(platform)));
});
afterAll(async () => {
  await smtp?.close();
  await platform?.close();
});

const call = memberRequest(() => server.url);

describe('consent on record', () => {
  it('stores the privacy notice in force and the time with every lead, and marketing consent apart', async () => {
    const before = Date.now();
    const leads = [
      {
        path: '/api/quick-quotes',
        table: 'cotizaciones_rapidas',
        body: quickQuote({
          name: 'Con Promos',
          phone: '9990001111',
          marketing: 'si',
        }),
      },
      {
        path: '/api/quick-quotes',
        table: 'cotizaciones_rapidas',
        body: quickQuote({ name: 'Sin Promos', phone: '9990001112' }),
      },
      {
        path: '/api/quote-requests',
        table: 'quote_requests',
        body: estimate({
          name: 'Estima Promos',
          phone: '9990001113',
          marketing: true,
        }),
      },
      {
        path: '/api/quote-requests',
        table: 'quote_requests',
        body: preFilter({
          name: 'Prefiltro Promos',
          phone: '9990001116',
          marketing: 'si',
        }),
      },
      {
        path: '/api/partner-applications',
        table: 'partner_applications',
        body: partnerApplication({
          name: 'Socio Sin Promos',
          phone: '9990001114',
        }),
      },
    ];
    for (const lead of leads) {
      const answer = await postJson(`${server.url}${lead.path}`, lead.body);
      expect(answer.status, `${lead.path} ${JSON.stringify(lead.body).slice(0, 60)}`).toBe(201);
      const [row] = await sql<{
        privacy_version: string;
        privacy_accepted_at: Date;
        marketing_consent: boolean;
      }>(`SELECT privacy_version, privacy_accepted_at, marketing_consent FROM ${lead.table} WHERE name = $1`, [
        lead.body.name,
      ]);
      expect(row?.privacy_version).toBe(PRIVACY_NOTICE_VERSION);
      expect(row?.privacy_accepted_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row?.marketing_consent).toBe('marketing' in lead.body);
    }
    const refused = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ phone: '9990001115', marketing: 'tal vez' }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: Record<string, string> }).fields.marketing).toBe(
      'Marca la casilla de novedades o déjala vacía.',
    );
    // The panel and the exports show both.
    const csv = await (await call(admin, '/api/admin/quick-quotes/export.csv')).text();
    expect(csv.split('\r\n')[0]).toContain('Acepta promociones,Aviso de privacidad aceptado');
    // Consent, when the notice was accepted (Mérida time) and its version: a date-independent match.
    const accepted = '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}';
    expect(csv).toMatch(new RegExp(`,Con Promos,.*,Sí,${accepted},${PRIVACY_NOTICE_VERSION}\r$`, 'm'));
    expect(csv).toMatch(new RegExp(`,Sin Promos,.*,No,${accepted},${PRIVACY_NOTICE_VERSION}\r$`, 'm'));
  });
});

describe('a person’s data (ARCO)', () => {
  const NAME = 'Teresa Arcos Uc';
  /** Another name they gave the team. */
  const ALIAS = 'Tere Arcos';
  const PHONE = '9998887766';
  /** Their number as WhatsApp writes it (the old mobile 1 after 52). */
  const WA_ID = `521${PHONE}`;
  /** Marked-up texts of theirs: a tag, a spreadsheet formula, a sum. */
  const TEXTS = ['<b>hola</b>', '=HYPERLINK("http://x")', '+1+1'];

  /** Every stored delivery processed by the queue. */
  const processed = () => webhookEventsProcessed(server);

  async function aPersonWithEverything(): Promise<string> {
    expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: NAME, phone: PHONE }))).status).toBe(
      201,
    );
    const prefilter = await postJson(`${server.url}/api/quote-requests`, preFilter({ name: NAME, phone: PHONE }));
    expect(prefilter.status).toBe(201);
    const report = vapiReport('arco-llamada-0001', {
      nombre: NAME,
      telefono: PHONE,
    });
    const toVoice = (body: unknown) =>
      fetch(`${server.url}/api/voice/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Vapi-Secret': VOICE_SECRET },
        body: JSON.stringify(body),
      });
    // During the call the agent stored them (issue #42): what its tool was told is theirs too.
    const saved = await toVoice({
      message: {
        type: 'tool-calls',
        call: { id: 'arco-llamada-0001' },
        toolCallList: [
          {
            id: 'arco-tool-0001',
            type: 'function',
            function: { name: 'guardar_prospecto', arguments: { nombre: NAME, telefono: PHONE } },
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect((await toVoice(report)).status).toBe(200);
    const [contact] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
      `+52${PHONE}`,
    ]);
    const id = contact?.id as string;
    expect(
      (
        await call(admin, `/api/admin/contacts/${id}/notes`, {
          method: 'POST',
          body: JSON.stringify({ body: `Llamar a ${NAME} el lunes` }),
        })
      ).status,
    ).toBe(201);
    const change = await call(admin, `/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'contactado', version: contact?.version }),
    });
    expect(change.status).toBe(200);
    // Their WhatsApp messages, and a status to their number about a message we do not know (kept pending).
    for (const body of TEXTS) {
      expect(
        (await postWebhook(server.url, inboundPayload({ from: WA_ID, name: NAME, content: { body } }))).status,
      ).toBe(200);
    }
    expect(
      (await postWebhook(server.url, statusPayload({ id: wamid(), status: 'delivered', recipient: WA_ID }))).status,
    ).toBe(200);
    await processed();
    expect(await countRows('whatsapp_messages', `contact_id = '${id}'`)).toBe(TEXTS.length);
    expect(await countRows('whatsapp_pending_statuses')).toBe(1);
    // The team typed them in again under another name, and exported the contacts found by their name.
    const captured = await call(admin, '/api/admin/contacts', {
      method: 'POST',
      body: JSON.stringify({ name: ALIAS, phone: PHONE, origin: 'llamada' }),
    });
    expect(captured.status).toBeLessThan(300);
    const exported = await call(admin, `/api/admin/contacts/export.csv?q=${encodeURIComponent(NAME)}`);
    expect(exported.status).toBe(200);
    await exported.text();
    // A consultation they paid (issue #41), and Stripe's event about it as the webhook stores it: the payer's
    // name, e-mail and phone, and our contact in the metadata.
    await sql(
      `WITH appointment AS (
         INSERT INTO appointments (contact_id, kind, place, starts_at, ends_at, blocked, status, source, price_mxn)
         VALUES ($1, 'asesoria-personalizada', 'videollamada', now() + interval '2 days', now() + interval '50 hours',
                 tstzrange(now() + interval '2 days', now() + interval '50 hours'), 'confirmada', 'sitio', 499)
         RETURNING id),
       payment AS (
         INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn,
                               concept, status, method, paid_at)
         SELECT id, $1, 'cs_test_arco', 'https://checkout.stripe.com/c/pay/cs_test_arco', now() + interval '1 day', 499,
                'Asesoría personalizada', 'pagado', 'tarjeta', now()
         FROM appointment RETURNING id)
       INSERT INTO payment_events (event_id, type, payload, payment_id, created_at, applied_at)
       SELECT 'evt_arco_0001', 'checkout.session.completed', $2::jsonb, id, now(), now() FROM payment`,
      [
        id,
        JSON.stringify({
          id: 'evt_arco_0001',
          type: 'checkout.session.completed',
          data: {
            object: {
              id: 'cs_test_arco',
              object: 'checkout.session',
              customer_details: { name: NAME, email: 'teresa.arcos@example.com', phone: `+52${PHONE}` },
              metadata: { contact_id: id },
            },
          },
        }),
      ],
    );
    // The e-mail telling the team of their messages, sent in the background: once sent, a message that came
    // after it was written queues another (laterMessagesNoticed). Waited for until none is left to send, so
    // that what the test reads next is all there will be.
    await until(
      async () =>
        (await countRows(
          'notification_deliveries',
          "contact_id = $1 AND purpose = 'message' AND status IN ('pending', 'sending')",
          [id],
        )) === 0,
      'the notices of their messages sent',
    );
    return id;
  }

  /** Every table of ours, and how many of its rows mention the person (their phone, name or contact id). */
  async function rowsMentioning(id: string): Promise<Record<string, number>> {
    const tables = await sql<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('public', 'graphile_worker') AND table_type = 'BASE TABLE'`,
    );
    const found: Record<string, number> = {};
    for (const table of tables) {
      const [row] = await sql<{ count: number }>(
        `SELECT count(*)::int AS count FROM "${table.schema}"."${table.name}" AS r
         WHERE r::text LIKE '%' || $1 || '%' OR r::text LIKE '%' || $2 || '%' OR r::text LIKE '%' || $3 || '%'`,
        [PHONE, NAME, id],
      );
      if (row?.count) found[`${table.schema}.${table.name}`] = row.count;
    }
    return found;
  }

  it('downloads everything stored about the person, from every table that has them, as JSON and CSV', async () => {
    const id = await aPersonWithEverything();
    const json = await call(admin, `/api/admin/contacts/${id}/datos.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toBe(`attachment; filename="datos-${id.slice(0, 8)}.json"`);
    const data = (await json.json()) as Record<string, unknown[]>;
    const mentioned = await rowsMentioning(id);
    // Every table that holds a row about them is in the download, with as many rows (the log is the team's, not theirs).
    // The webhook's raw deliveries are our copies of their messages (and may carry other people's): not downloaded, erased.
    for (const [table, count] of Object.entries(mentioned)) {
      if (table === 'public.activity_log' || table === 'public.whatsapp_webhook_events') continue;
      expect(data[table.replace('public.', '')], table).toHaveLength(count);
    }
    expect(data.cotizaciones_rapidas).toHaveLength(1);
    expect(data.quote_requests).toHaveLength(1);
    expect(data.voice_calls).toHaveLength(1);
    expect(data.voice_call_events).toHaveLength(1);
    expect(data.contact_notes).toHaveLength(1);
    expect(data.whatsapp_conversations).toHaveLength(1);
    const messages = data.whatsapp_messages as {
      body: string;
      direction: string;
    }[];
    // Sent within one second (the platform's timestamps are in seconds): compared in any order.
    expect(messages.map((message) => message.body).sort()).toEqual([...TEXTS].sort());
    expect(messages.every((message) => message.direction === 'in')).toBe(true);
    for (const internal of ['idempotency_key', 'claimed_at', 'attempts"']) {
      expect(JSON.stringify(data.whatsapp_messages)).not.toContain(internal);
    }
    expect(JSON.stringify(data)).not.toContain('idempotency_key');

    const csv = await call(admin, `/api/admin/contacts/${id}/datos.csv`);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('tabla,id,campo,valor');
    expect(text).toContain(`contacts,${id},phone,'+52${PHONE}`); // formula-safe: a spreadsheet reads a leading + as a formula
    expect(text).toContain('voice_calls,');
    // Their texts as text: a formula or a sum is not run by the spreadsheet, a tag is just characters.
    const bodies = text
      .split('\r\n')
      .filter((line) => line.startsWith('whatsapp_messages,') && line.includes(',body,'))
      .map((line) => line.slice(line.indexOf(',body,') + ',body,'.length));
    expect(bodies.sort()).toEqual([`"'=HYPERLINK(""http://x"")"`, "'+1+1", '<b>hola</b>'].sort());
    expect(text).toContain(`whatsapp_conversations,${id},wa_id,${WA_ID}`);
    const [logged] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'person_exported' ORDER BY at DESC LIMIT 1`,
    );
    expect(logged?.summary).toBe(`Descargó todos los datos de ${NAME} (CSV)`);
  });

  it('erases the person whole: nothing of them is left in any table, and the log keeps what was done', async () => {
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${PHONE}`]);
    const id = contact?.id as string;
    expect(Object.keys(await rowsMentioning(id)).length).toBeGreaterThan(3);

    // Only administrators, only from our pages.
    const invitation = await call(admin, '/api/admin/team/invitations', {
      method: 'POST',
      body: JSON.stringify({ email: 'asesora.arco@ceiba.mx', role: 'asesor' }),
    });
    const token = ((await invitation.json()) as { link: string }).link.split('#')[1];
    const adviser = cookieOf(
      await call(null, '/api/auth/invitation', {
        method: 'POST',
        body: JSON.stringify({
          token,
          name: 'Asesora Arco',
          password: 'asesora-arco-1',
        }),
      }),
    );
    expect((await call(adviser, `/api/admin/contacts/${id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await call(adviser, `/api/admin/contacts/${id}/datos.json`)).status).toBe(403);
    expect((await call(null, `/api/admin/contacts/${id}/datos.json`)).status).toBe(401);
    expect(
      (
        await call(admin, `/api/admin/contacts/${id}`, {
          method: 'DELETE',
          headers: { Origin: 'https://otro.example' },
        })
      ).status,
    ).toBe(403);

    const erased = await call(admin, `/api/admin/contacts/${id}`, {
      method: 'DELETE',
    });
    expect(erased.status).toBe(200);
    // Their 3 messages; 4 raw deliveries (3 messages, a status to them) and the status left pending.
    expect(await erased.json()).toEqual({
      requests: 2,
      calls: 1,
      notes: 1,
      messages: 3,
      deliveries: 5,
    });
    expect(await rowsMentioning(id)).toEqual({});
    expect(await countRows('whatsapp_webhook_events', `body LIKE '%${PHONE}%'`)).toBe(0);
    expect(await countRows('activity_log', `activity_log::text LIKE '%${ALIAS}%'`)).toBe(0);
    expect(await countRows('whatsapp_pending_statuses')).toBe(0);
    // The log still says what the team did, without whom.
    const entries = await sql<{ kind: string; summary: string }>(
      `SELECT kind, summary FROM activity_log WHERE kind IN ('state_change', 'person_exported', 'person_erased') ORDER BY at`,
    );
    expect(entries).toEqual(
      expect.arrayContaining([
        {
          kind: 'state_change',
          summary: 'Cambió el estado de [persona eliminada] a «Contactado»',
        },
        {
          kind: 'person_exported',
          summary: 'Descargó todos los datos de [persona eliminada] (CSV)',
        },
        {
          kind: 'person_erased',
          summary:
            'Eliminó a petición suya todos los datos de una persona: 2 solicitudes, 1 llamada, 3 mensajes de WhatsApp y 1 nota',
        },
      ]),
    );
    expect((await call(admin, `/api/admin/contacts/${id}`, { method: 'DELETE' })).status).toBe(404);
    // Outside the erasure, the log still refuses every change.
    await expect(sql(`UPDATE activity_log SET summary = 'x'`)).rejects.toThrow(/append-only/);
  });

  it('erases and downloads only the person’s own: another contact’s request that carries their phone stays that contact’s', async () => {
    // Ana typed Beto's number by mistake; the team corrected hers. Beto then writes, and asks for his data and its erasure.
    const [wrong, hers] = ['9994441001', '9994441002'];
    expect(
      (await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Ana Chi', phone: wrong }))).status,
    ).toBe(201);
    const [ana] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
      `+52${wrong}`,
    ]);
    const corrected = await call(admin, `/api/admin/contacts/${ana?.id}/details`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Ana Chi', phone: hers, version: ana?.version }),
    });
    expect(corrected.status).toBe(200);
    expect(
      (await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Beto Pool', phone: wrong }))).status,
    ).toBe(201);
    const [beto] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${wrong}`]);
    expect(beto?.id).not.toBe(ana?.id);

    const data = (await (await call(admin, `/api/admin/contacts/${beto?.id}/datos.json`)).json()) as {
      cotizaciones_rapidas: { name: string }[];
    };
    expect(data.cotizaciones_rapidas.map((row) => row.name)).toEqual(['Beto Pool']);
    const erased = await call(admin, `/api/admin/contacts/${beto?.id}`, { method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(((await erased.json()) as { requests: number }).requests).toBe(1);
    expect(await countRows('cotizaciones_rapidas', 'contact_id = $1', [ana?.id])).toBe(1);
  });

  it('erases the WhatsApp deliveries of the number a person had before the team corrected it', async () => {
    const [old, corrected] = ['9994442001', '9994442002'];
    expect(
      (
        await postWebhook(
          server.url,
          inboundPayload({ from: `521${old}`, name: 'Olga Tun', content: { body: 'Hola' } }),
        )
      ).status,
    ).toBe(200);
    await processed();
    const [contact] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
      `+52${old}`,
    ]);
    const edited = await call(admin, `/api/admin/contacts/${contact?.id}/details`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Olga Tun', phone: corrected, version: contact?.version }),
    });
    expect(edited.status).toBe(200);
    expect(await countRows('whatsapp_webhook_events', `body LIKE '%${old}%'`)).toBe(1);
    expect((await call(admin, `/api/admin/contacts/${contact?.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await countRows('whatsapp_webhook_events', `body LIKE '%${old}%'`)).toBe(0);
  });
});
