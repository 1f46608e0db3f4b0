import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignReport } from '../../src/lib/admin/campaigns.ts';
import { googlePhone, metaPhone } from '../../src/server/conversions/hash.ts';
import {
  type AdPlatforms,
  adPlatformsEnv,
  GOOGLE_ACTIONS,
  GOOGLE_CUSTOMER,
  META_DATASET,
  startAdPlatforms,
} from '../support/ad-platforms.ts';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { seedMemberGiving } from '../support/advisers.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';

/**
 * Issue #43: a visit from an ad becomes a contact whose every step is counted
 * once in the campaign report and told once to each ad platform (faked at
 * the network edge); a Click-to-WhatsApp ad's referral is kept and shown; a
 * person without consent is told to nobody.
 */
let server: RunningServer;
let ads: AdPlatforms;
let whatsapp: FakePlatform;
let admin: string;

const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';
const GCLID = 'Cj0KCQiA-campana-de-prueba_123';
const FBC = 'fb.1.1764400000000.IwAR2F4-dbP0l7Mn1IawQQ';

beforeAll(async () => {
  [ads, whatsapp] = await Promise.all([startAdPlatforms(), startFakePlatform()]);
  server = await startServer({
    ...adPlatformsEnv(ads),
    ...whatsappEnv(whatsapp),
    SITE_URL: 'https://www.ceibacasas.mx',
    // The queue's upkeep (which finds the conversions) every 2 s instead of 30.
    NOTIFY_LOCK_TIMEOUT_SECONDS: '2',
  });
  admin = await setupAdmin(server.url);
  await seedMemberGiving(sql, VISIT, 'Ada');
});
afterAll(async () => {
  await Promise.all([ads?.close(), whatsapp?.close()]);
});

const panel = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { Cookie: admin, Origin: originOf(server.url), 'Content-Type': 'application/json', ...init.headers },
  });
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const thisMonth = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(new Date()).slice(0, 7);

async function firstSlot(): Promise<string> {
  const date = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * 86_400_000);
  const answer = await fetch(
    `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${date(1)}&to=${date(10)}`,
  );
  const { slots } = (await answer.json()) as { slots: { start: string }[] };
  return slots[0]?.start as string;
}

const sentTo = (platform: 'meta' | 'google', eventId: string) =>
  platform === 'meta'
    ? ads.meta.flatMap((request) => request.body.data).filter((event) => event.event_id === eventId)
    : ads.google
        .flatMap((request) => request.body.events as Record<string, unknown>[])
        .filter((event) => event.transactionId === eventId);

/** A phone's browser, as it names itself in the User-Agent of the form's request. */
const PHONE_BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const CTWA_CLID = 'Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4';

/** A message from `from` (WhatsApp id) sent from a Click-to-WhatsApp ad, as the Cloud API delivers it; their contact. */
async function fromAnAd(from: string, name: string): Promise<{ id: string; first_touch: Record<string, string> }> {
  const answer = await postWebhook(
    server.url,
    inboundPayload({
      from,
      name,
      content: { body: 'Hola, quiero información de la casa' },
      extra: {
        referral: {
          source_url: 'https://fb.me/3cr4Wqqkv',
          source_id: '120226305854810726',
          source_type: 'ad',
          headline: 'Casa Ceiba en 6 semanas',
          body: 'Tu casa lista en 6 semanas',
          media_type: 'image',
          image_url: 'https://scontent.xx.fbcdn.net/v/t45.1',
          ctwa_clid: CTWA_CLID,
        },
      },
    }),
  );
  expect(answer.status).toBe(200);
  let contact: { id: string; first_touch: Record<string, string> } | undefined;
  await until(async () => {
    [contact] = await sql<{ id: string; first_touch: Record<string, string> }>(
      'SELECT id, first_touch FROM contacts WHERE phone = $1',
      [`+${from}`],
    );
    return Boolean(contact);
  }, 'the contact of the conversation');
  return contact as { id: string; first_touch: Record<string, string> };
}

/** The consent question the fake platform received for `from`. */
async function askedOf(from: string) {
  let question: (typeof whatsapp.sent)[number] | undefined;
  await until(() => {
    question = whatsapp.sent.find((request) => request.to === from && request.type === 'interactive');
    return question !== undefined;
  }, 'the consent question');
  return question as (typeof whatsapp.sent)[number];
}

/** Their press of a reply button, as the Cloud API delivers it. */
const pressed = (from: string, id: string, title: string) =>
  inboundPayload({ from, type: 'interactive', content: { type: 'button_reply', button_reply: { id, title } } });

describe('from ad to sale', () => {
  it('gclid and UTM → quick quote → visit booked → paid → won: one contact, each step once in the report and once to each platform', async () => {
    const phone = uniquePhone();
    const campaign = `casas-${phone}`;
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({
        name: 'Marisol Canché',
        phone,
        email: 'Marisol.Canche@Gmail.com',
        marketing: true,
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: campaign,
        utm_content: 'anuncio-ceiba-6-semanas',
        gclid: GCLID,
        fbc: FBC,
        // The visit began at a buyer's signed link (one of theirs, opened from WhatsApp): its token is not kept.
        landing_path: '/modelos?gclid=x&t=v1.firmado.secreto',
      }),
      { 'User-Agent': PHONE_BROWSER },
    );
    expect(lead.status).toBe(201);
    const [contact] = await sql<{ id: string; first_touch: Record<string, string> }>(
      'SELECT id, first_touch FROM contacts WHERE phone = $1',
      [`+52${phone}`],
    );
    const id = contact?.id as string;
    expect(contact?.first_touch).toMatchObject({
      landing_path: '/modelos?gclid=x',
      utm_source: 'google',
      utm_campaign: campaign,
      gclid: GCLID,
      fbc: FBC,
      client_user_agent: PHONE_BROWSER,
    });

    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ name: 'Marisol Canché', phone, kind: VISIT, place: MERIDA, start: await firstSlot() }),
    });
    expect(booked.status).toBe(201);
    const { id: appointment } = (await booked.json()) as { id: string };
    // The consultation's payment, as the payment's webhook leaves it (tests/api/payments.test.ts walks that path).
    const [payment] = await sql<{ id: string }>(
      `INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept,
                             status, method, paid_at)
       VALUES ($1, $2, $3, 'https://checkout.stripe.com/c/pay/x', now() + interval '1 hour', 499, 'Asesoría personalizada',
               'pagado', 'tarjeta', now()) RETURNING id`,
      [appointment, id, `cs_test_${phone}`],
    );
    // A second payment of the same consultation (paid twice), whose refund is already asked for: money given back.
    const [twice] = await sql<{ id: string }>(
      `INSERT INTO payments (appointment_id, contact_id, session_id, session_url, session_expires_at, amount_mxn, concept,
                             status, method, paid_at, refund_requested_at)
       VALUES ($1, $2, $3, 'https://checkout.stripe.com/c/pay/y', now() + interval '1 hour', 499, 'Asesoría personalizada',
               'pagado', 'tarjeta', now(), now()) RETURNING id`,
      [appointment, id, `cs_test_${phone}_2`],
    );
    const { version } = (await (await panel(`/api/admin/contacts/${id}`)).json()) as { version: number };
    const sold = await panel(`/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_ganado', estimatedValue: 760_800, version }),
    });
    expect(sold.status).toBe(200);

    const events = {
      lead: `lead:${id}`,
      schedule: `schedule:${appointment}`,
      purchase: `purchase:${payment?.id}`,
      won: `won:${id}`,
    };
    await until(
      () =>
        Object.values(events).every((event) => sentTo('meta', event).length > 0 && sentTo('google', event).length > 0),
      'every conversion at both platforms',
    );
    // Once each, however many upkeeps ran meanwhile.
    await until(
      async () => (await countRows('ad_conversions', `contact_id = $1 AND status = 'enviado'`, [id])) === 8,
      'all eight settled',
    );
    for (const event of Object.values(events)) {
      expect(sentTo('meta', event), event).toHaveLength(1);
      expect(sentTo('google', event), event).toHaveLength(1);
    }
    // The payment being given back is no purchase (found by the same upkeep as the first, it was sent too).
    expect(await countRows('ad_conversions', 'event_id = $1', [`purchase:${twice?.id}`])).toBe(0);

    // Meta: the documented fields, nothing personal in clear.
    const metaLead = sentTo('meta', events.lead)[0] as Record<string, unknown>;
    expect(ads.meta[0]?.dataset).toBe(META_DATASET);
    expect(metaLead).toMatchObject({
      event_name: 'Lead',
      action_source: 'website',
      // The page alone: a Google click's id is not Meta's to know.
      event_source_url: 'https://www.ceibacasas.mx/modelos',
      user_data: { ph: [metaPhone(`+52${phone}`)], fbc: FBC, client_user_agent: PHONE_BROWSER },
    });
    expect(typeof metaLead.event_time).toBe('number');
    expect(sentTo('meta', events.won)[0]).toMatchObject({
      event_name: 'CasaVendida',
      custom_data: { value: 760_800, currency: 'MXN' },
    });
    expect(sentTo('meta', events.purchase)[0]).toMatchObject({ event_name: 'Purchase', custom_data: { value: 499 } });
    const everything = JSON.stringify([ads.meta, ads.google]);
    expect(everything).not.toContain(phone);
    expect(everything.toLowerCase()).not.toContain('marisol');

    // Google: one request per conversion action, the click id and the hashed phone.
    const googleLead = ads.google.find(
      (request) =>
        sentTo('google', events.lead).length &&
        (request.body.events as { transactionId: string }[]).some((e) => e.transactionId === events.lead),
    );
    expect(googleLead?.body).toMatchObject({
      destinations: [
        {
          operatingAccount: { accountType: 'GOOGLE_ADS', accountId: GOOGLE_CUSTOMER },
          productDestinationId: GOOGLE_ACTIONS.lead,
        },
      ],
      encoding: 'HEX',
    });
    expect(sentTo('google', events.lead)[0]).toMatchObject({
      eventSource: 'WEB',
      adIdentifiers: { gclid: GCLID },
      userData: { userIdentifiers: expect.arrayContaining([{ phoneNumber: googlePhone(`+52${phone}`) }]) },
    });
    expect(ads.tokens[0]?.get('grant_type')).toBe('refresh_token');

    // The report: one row for the campaign, each step counted once, with what marketing spent.
    const spend = await panel('/api/admin/campaigns/spend', {
      method: 'POST',
      body: JSON.stringify({ source: 'google', campaign, month: thisMonth(), amountMxn: 12_000 }),
    });
    expect(spend.status).toBe(200);
    const answer = await panel(`/api/admin/campaigns?from=${thisMonth()}&to=${thisMonth()}&level=campaign`);
    expect(answer.status).toBe(200);
    const report = (await answer.json()) as CampaignReport;
    const row = report.rows.find((candidate) => candidate.campaign === campaign);
    expect(row).toEqual({
      source: 'google',
      campaign,
      ad: null,
      leads: 1,
      contacts: 1,
      firstReplies: 1,
      visitsBooked: 1,
      visitsHeld: 0,
      consultationsPaid: 1,
      won: 1,
      wonValueMxn: 760_800,
      spendMxn: 12_000,
    });

    // The numbers agree with the list they summarise: Prospectos by source, campaign and the same month.
    const [from] = new Date().toISOString().split('T');
    const list = (await (
      await panel(`/api/admin/contacts?source=google&campaign=${campaign}&from=${thisMonth()}-01&to=${from}`)
    ).json()) as { total: number; items: { id: string }[] };
    expect(list.items.map((item) => item.id)).toEqual([id]);
    // A row of the report by ad: the people of that ad alone.
    const byAd = async (ad: string) =>
      (
        (await (
          await panel(
            `/api/admin/contacts?source=google&campaign=${campaign}&ad=${ad}&from=${thisMonth()}-01&to=${from}`,
          )
        ).json()) as { items: { id: string }[] }
      ).items.map((item) => item.id);
    expect(await byAd('anuncio-ceiba-6-semanas')).toEqual([id]);
    expect(await byAd('otro-anuncio')).toEqual([]);

    // The pipeline too: the campaign's people alone, with their counts.
    const board = (await (await panel(`/api/admin/pipeline?source=google&campaign=${campaign}`)).json()) as {
      columns: { state: string; total: number; items: { id: string }[] }[];
    };
    const won = board.columns.find((column) => column.state === 'cerrado_ganado');
    expect(won?.items.map((item) => item.id)).toEqual([id]);
    // What the card says was paid: the payment that stands, not the one being given back.
    expect(won?.items[0]).toMatchObject({ paid: 499 });
    expect(board.columns.reduce((sum, column) => sum + column.total, 0)).toBe(1);

    // The CSV: administrators, formula-safe, with the costs per result.
    const csv = await panel(`/api/admin/campaigns/export.csv?from=${thisMonth()}&to=${thisMonth()}&level=campaign`);
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain(`google,${campaign},,1,1,1,1,0,1,1,760800,12000,12000,12000`);
  });

  it('a house sold once is told once: merging the buyer’s other contact into the won one sends no second sale', async () => {
    /** A quick quote from the Google ad (a gclid: Google's alone), with consent: the contact. */
    const fromTheAd = async (name: string) => {
      const phone = uniquePhone();
      const lead = await postJson(
        `${server.url}/api/quick-quotes`,
        quickQuote({ name, phone, marketing: true, utm_source: 'google', utm_campaign: 'casas-fusion', gclid: GCLID }),
      );
      expect(lead.status).toBe(201);
      const [contact] = await sql<{ id: string; phone: string }>('SELECT id, phone FROM contacts WHERE phone = $1', [
        `+52${phone}`,
      ]);
      return contact as { id: string; phone: string };
    };
    const kept = await fromTheAd('Irma Balam');
    const won = await fromTheAd('Irma Balam Pool');
    const { version } = (await (await panel(`/api/admin/contacts/${won.id}`)).json()) as { version: number };
    const sold = await panel(`/api/admin/contacts/${won.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_ganado', estimatedValue: 900_000, version }),
    });
    expect(sold.status).toBe(200);
    await until(() => sentTo('google', `won:${won.id}`).length > 0, 'the sale at Google');
    const current = (await (await panel(`/api/admin/contacts/${kept.id}`)).json()) as { version: number };
    const merged = await panel(`/api/admin/contacts/${kept.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({
        from: won.id,
        name: 'Irma Balam',
        phone: kept.phone,
        email: null,
        version: current.version,
      }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);
    // A later lead's conversion sent: the upkeep that found it looked at the merged contact too.
    const later = await fromTheAd('Óscar Dzul');
    await until(() => sentTo('google', `lead:${later.id}`).length > 0, 'a later lead at Google');
    expect(await countRows('ad_conversions', 'event_id = $1', [`won:${kept.id}`])).toBe(0);
    expect(await countRows('ad_conversions', `contact_id = $1 AND event_id LIKE 'won:%'`, [kept.id])).toBe(2);
  });

  it('keeps the ad click of a middle visit: a booking made later from a direct visit is told to Google', async () => {
    const phone = uniquePhone();
    const send = (extra: Record<string, unknown>) =>
      postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Rosa Tun', phone, marketing: true, ...extra }), {
        'Idempotency-Key': randomUUID(),
      });
    // First an organic visit, then one from the Google ad.
    expect((await send({ landing_path: '/' })).status).toBe(201);
    expect((await send({ utm_source: 'google', gclid: GCLID, landing_path: '/modelos?gclid=x' })).status).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    // Then a direct visit that books.
    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({
        name: 'Rosa Tun',
        phone,
        kind: VISIT,
        place: MERIDA,
        start: await firstSlot(),
        landing_path: '/agenda',
      }),
    });
    expect(booked.status).toBe(201);
    const { id: appointment } = (await booked.json()) as { id: string };
    await until(() => sentTo('google', `schedule:${appointment}`).length > 0, 'the booking at Google');
    expect(sentTo('google', `schedule:${appointment}`)[0]).toMatchObject({ adIdentifiers: { gclid: GCLID } });
    const [touch] = await sql<{ last_touch: Record<string, string> }>('SELECT last_touch FROM contacts WHERE id = $1', [
      contact?.id,
    ]);
    expect(touch?.last_touch).toMatchObject({ landing_path: '/agenda', gclid: GCLID });
    // Each platform's latest click: a newer one of the same platform replaces all of its earlier ids.
    const touchAfter = async (previous: object, next: object) =>
      (await sql<{ kept: object }>('SELECT touch_after($1::jsonb, $2::jsonb) AS kept', [previous, next]))[0]?.kept;
    expect(await touchAfter({ gclid: 'g1', fbc: 'f1' }, { gbraid: 'b2' })).toEqual({ fbc: 'f1', gbraid: 'b2' });
    expect(await touchAfter({ ctwa_clid: 'c1', gclid: 'g1' }, { fbc: 'f2' })).toEqual({ gclid: 'g1', fbc: 'f2' });
    expect(await touchAfter({ gclid: 'g1' }, {})).toEqual({ gclid: 'g1' });
  });

  it('a box ticked on a later form sends what waited for consent: the lead of the first form', async () => {
    const phone = uniquePhone();
    const send = (marketing: boolean) =>
      postJson(
        `${server.url}/api/quick-quotes`,
        quickQuote({ name: 'Ana Pool', phone, marketing, utm_source: 'google', gclid: GCLID }),
        { 'Idempotency-Key': randomUUID() },
      );
    expect((await send(false)).status).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    await until(
      async () =>
        (await countRows(
          'ad_conversions',
          `event_id = $1 AND destination = 'google' AND status = 'sin_consentimiento'`,
          [`lead:${contact?.id}`],
        )) === 1,
      'the lead kept unsent, without consent',
    );
    expect((await send(true)).status).toBe(201);
    await until(() => sentTo('google', `lead:${contact?.id}`).length > 0, 'the lead at Google, consent given');
  });

  it('tells a sale once it has a value: won without one, nothing is sent until the adviser writes it', async () => {
    const phone = uniquePhone();
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Gabriel Ek', phone, marketing: true, utm_source: 'google', gclid: GCLID }),
    );
    expect(lead.status).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    const id = contact?.id as string;
    const change = async (body: Record<string, unknown>) => {
      const { version } = (await (await panel(`/api/admin/contacts/${id}`)).json()) as { version: number };
      const answer = await panel(`/api/admin/contacts/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ ...body, version }),
      });
      expect(answer.status).toBe(200);
    };
    await change({ state: 'cerrado_ganado' });
    // An upkeep after the sale has run: a later lead is at Google.
    const later = uniquePhone();
    await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Noé Chan', phone: later, marketing: true, utm_source: 'google', gclid: GCLID }),
    );
    const [next] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${later}`]);
    await until(() => sentTo('google', `lead:${next?.id}`).length > 0, 'a later lead at Google');
    expect(await countRows('ad_conversions', 'event_id = $1', [`won:${id}`])).toBe(0);
    await change({ estimatedValue: 815_000 });
    await until(() => sentTo('google', `won:${id}`).length > 0, 'the sale at Google, with its value');
    expect(sentTo('google', `won:${id}`)[0]).toMatchObject({ conversionValue: 815_000, currency: 'MXN' });
  });

  it('keeps a Click-to-WhatsApp ad’s referral with the contact, asks the forms’ consent once, and a yes tells Meta', async () => {
    const from = `52${uniquePhone()}`;
    const contact = await fromAnAd(from, 'Rubí Tec');
    expect(contact.first_touch).toMatchObject({
      utm_source: 'whatsapp',
      utm_medium: 'anuncio',
      utm_campaign: 'Casa Ceiba en 6 semanas',
      utm_content: '120226305854810726',
      ctwa_clid: CTWA_CLID,
    });
    // Asked at once, as two buttons with the privacy notice's address; nothing told before the answer.
    const question = await askedOf(from);
    expect(question.body.interactive).toMatchObject({
      type: 'button',
      body: { text: expect.stringContaining('https://www.ceibacasas.mx/aviso-de-privacidad') },
      action: {
        buttons: [
          { type: 'reply', reply: { id: 'consentimiento:si', title: 'Sí, quiero' } },
          { type: 'reply', reply: { id: 'consentimiento:no', title: 'No, gracias' } },
        ],
      },
    });
    await until(
      async () =>
        (await countRows('ad_conversions', `contact_id = $1 AND status = 'sin_consentimiento'`, [contact.id])) > 0,
      'the conversion kept without consent',
    );
    expect(sentTo('meta', `lead:${contact.id}`)).toEqual([]);

    expect((await postWebhook(server.url, pressed(from, 'consentimiento:si', 'Sí, quiero'))).status).toBe(200);
    await until(() => sentTo('meta', `lead:${contact.id}`).length > 0, 'the lead at Meta after the yes');
    expect(sentTo('meta', `lead:${contact.id}`)).toHaveLength(1);
    expect(sentTo('meta', `lead:${contact.id}`)[0]).toMatchObject({
      event_name: 'LeadSubmitted',
      action_source: 'business_messaging',
      messaging_channel: 'whatsapp',
      user_data: { ctwa_clid: CTWA_CLID, ph: [metaPhone(`+${from}`)] },
    });
    const history = await sql<{ to_value: string; detail: string }>(
      `SELECT to_value, detail FROM contact_events WHERE contact_id = $1 AND kind = 'marketing_consent'`,
      [contact.id],
    );
    expect(history).toEqual([
      { to_value: 'si', detail: expect.stringMatching(/^WhatsApp · aviso de privacidad \d{4}-\d{2}-\d{2}$/) },
    ]);
    // A second message from an ad: never asked again.
    await fromAnAd(from, 'Rubí Tec');
    await until(
      async () => (await countRows('whatsapp_messages', `contact_id = $1 AND direction = 'in'`, [contact.id])) === 3,
      'the three messages',
    );
    expect(whatsapp.sent.filter((request) => request.to === from && request.type === 'interactive')).toHaveLength(1);
  });

  it('a “No, gracias” to the consent question keeps the person from the platforms', async () => {
    const from = `52${uniquePhone()}`;
    const contact = await fromAnAd(from, 'Tomás Uc');
    await askedOf(from);
    expect((await postWebhook(server.url, pressed(from, 'consentimiento:no', 'No, gracias'))).status).toBe(200);
    await until(
      async () =>
        (await countRows('contact_events', `contact_id = $1 AND kind = 'marketing_consent' AND to_value = 'no'`, [
          contact.id,
        ])) === 1,
      'the no in the history',
    );
    await until(
      async () =>
        (await countRows(
          'ad_conversions',
          `contact_id = $1 AND destination = 'meta' AND status = 'sin_consentimiento'`,
          [contact.id],
        )) === 1,
      'the lead kept unsent',
    );
    expect(sentTo('meta', `lead:${contact.id}`)).toEqual([]);
    // A form anyone may send with her number, box ticked, then a visit booked: her own «no» still stands.
    const phone = from.slice(2);
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Tomás Uc', phone, marketing: true }),
    );
    expect(lead.status).toBe(201);
    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({ name: 'Tomás Uc', phone, kind: VISIT, place: MERIDA, start: await firstSlot() }),
    });
    expect(booked.status).toBe(201);
    const { id: appointment } = (await booked.json()) as { id: string };
    await until(
      async () =>
        (await countRows('ad_conversions', `event_id = $1 AND destination = 'meta' AND status = 'sin_consentimiento'`, [
          `schedule:${appointment}`,
        ])) === 1,
      'the visit kept unsent',
    );
    expect(sentTo('meta', `schedule:${appointment}`)).toEqual([]);
  });

  it('tells Meta nothing of a person who came through none of its ads, as the privacy notice promises', async () => {
    const phone = uniquePhone();
    // Session storage off in the browser, or an organic visit: the form goes without a Meta click id.
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Lucía Pech', phone, marketing: true, utm_source: 'google', utm_medium: 'organic' }),
      { 'User-Agent': PHONE_BROWSER },
    );
    expect(lead.status).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    await until(
      async () =>
        (await countRows('ad_conversions', `event_id = $1 AND destination = 'meta' AND status = 'sin_identificador'`, [
          `lead:${contact?.id}`,
        ])) === 1,
      'the lead kept from Meta',
    );
    expect(sentTo('meta', `lead:${contact?.id}`)).toEqual([]);
  });

  it('tells nothing of a person who asked for no more messages on WhatsApp, whatever box a form ticks', async () => {
    const phone = uniquePhone();
    // They wrote "BAJA" on WhatsApp; then a form with their number ticks «Quiero recibir novedades».
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (name, phone, is_buyer) VALUES ('Raúl Baja', $1, true) RETURNING id`,
      [`+52${phone}`],
    );
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction, opted_out_at)
       VALUES ($1, now(), 'in', now())`,
      [contact?.id],
    );
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Raúl Baja', phone, marketing: true, fbc: FBC }),
      { 'User-Agent': PHONE_BROWSER },
    );
    expect(lead.status).toBe(201);
    await until(
      async () =>
        (await countRows('ad_conversions', `event_id = $1 AND destination = 'meta' AND status = 'sin_consentimiento'`, [
          `lead:${contact?.id}`,
        ])) === 1,
      'the lead kept from Meta',
    );
    expect(sentTo('meta', `lead:${contact?.id}`)).toEqual([]);
  });

  it('tells nothing more of a person whose opposition an administrator records: their sale stays unsent', async () => {
    const phone = uniquePhone();
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Irma Canul', phone, marketing: true, utm_source: 'google', gclid: GCLID }),
    );
    expect(lead.status).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    const id = contact?.id as string;
    await until(() => sentTo('google', `lead:${id}`).length > 0, 'the lead at Google, consent given');
    const oppose = (cookie: string, origin = originOf(server.url)) =>
      fetch(`${server.url}/api/admin/contacts/${id}/opposition`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: origin, 'Content-Type': 'application/json' },
        body: '{}',
      });
    // An adviser, a cross-site post and an unexpected field change nothing.
    const adviser = await inviteAdviser(server.url, admin, 'asesora.oposicion@ceiba.mx', 'Rita May');
    expect((await oppose(adviser.cookie)).status).toBe(403);
    expect((await oppose(admin, 'https://otro-sitio.example')).status).toBe(403);
    const extra = await panel(`/api/admin/contacts/${id}/opposition`, { method: 'POST', body: '{"si":true}' });
    expect(extra.status).toBe(400);
    expect(await countRows('contact_events', `contact_id = $1 AND kind = 'marketing_consent'`, [id])).toBe(0);
    // The person asked by e-mail: recorded once (a second press writes nothing), with who recorded it.
    const recorded = await oppose(admin);
    expect(recorded.status, await recorded.clone().text()).toBe(200);
    expect(((await recorded.json()) as { marketingConsent: boolean }).marketingConsent).toBe(false);
    expect((await oppose(admin)).status).toBe(200);
    expect(
      await sql(
        `SELECT to_value, actor_name FROM contact_events WHERE contact_id = $1 AND kind = 'marketing_consent'`,
        [id],
      ),
    ).toEqual([{ to_value: 'no', actor_name: expect.any(String) }]);
    expect(await countRows('activity_log', `kind = 'marketing_opposition' AND details ->> 'contact' = $1`, [id])).toBe(
      1,
    );
    // Sold afterwards, with its value: kept from Google, and a later form's ticked box does not undo the opposition.
    const { version } = (await (await panel(`/api/admin/contacts/${id}`)).json()) as { version: number };
    const won = await panel(`/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_ganado', estimatedValue: 640_000, version }),
    });
    expect(won.status).toBe(200);
    await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Irma Canul', phone, marketing: true, utm_source: 'google', gclid: GCLID }),
      { 'Idempotency-Key': randomUUID() },
    );
    await until(
      async () =>
        (await countRows(
          'ad_conversions',
          `event_id = $1 AND destination = 'google' AND status = 'sin_consentimiento'`,
          [`won:${id}`],
        )) === 1,
      'the sale kept from Google',
    );
    expect(sentTo('google', `won:${id}`)).toEqual([]);
  });

  it('an opposition recorded before any consent holds against a box ticked later', async () => {
    const phone = uniquePhone();
    expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Hugo Poot', phone }))).status).toBe(
      201,
    );
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    const id = contact?.id as string;
    const recorded = await panel(`/api/admin/contacts/${id}/opposition`, { method: 'POST', body: '{}' });
    expect(recorded.status).toBe(200);
    expect(await recorded.json()).toMatchObject({ marketingConsent: false, marketingOpposed: true });
    const ticked = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Hugo Poot', phone, marketing: true, utm_source: 'google', gclid: GCLID }),
      { 'Idempotency-Key': randomUUID() },
    );
    expect(ticked.status).toBe(201);
    await until(
      async () =>
        (await countRows(
          'ad_conversions',
          `event_id = $1 AND destination = 'google' AND status = 'sin_consentimiento'`,
          [`lead:${id}`],
        )) === 1,
      'the lead kept from Google',
    );
    expect(sentTo('google', `lead:${id}`)).toEqual([]);
  });

  it('tells no appointment booked until it holds: a consultation not yet paid is no Schedule', async () => {
    await seedMemberGiving(sql, 'asesoria-personalizada', 'Eva');
    const date = (offset: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * 86_400_000);
    const slots = await fetch(
      `${server.url}/api/appointments/slots?kind=asesoria-personalizada&place=videollamada&from=${date(1)}&to=${date(10)}`,
    );
    const { slots: free } = (await slots.json()) as { slots: { start: string }[] };
    const phone = uniquePhone();
    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({
        name: 'Paula Uc',
        phone,
        kind: 'asesoria-personalizada',
        place: 'videollamada',
        start: free[0]?.start,
      }),
    });
    expect(booked.status).toBe(201);
    const { id: appointment, status } = (await booked.json()) as { id: string; status: string };
    expect(status).toBe('por_pagar');
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    // The upkeep found the person's lead, in the same statement that would have found the appointment.
    await until(
      async () => (await countRows('ad_conversions', 'event_id = $1', [`lead:${contact?.id}`])) > 0,
      'the lead found',
    );
    expect(await countRows('ad_conversions', 'event_id = $1', [`schedule:${appointment}`])).toBe(0);
  });

  it('keeps the campaign of a person who books a visit before anything else as their first touch', async () => {
    const phone = uniquePhone();
    const campaign = `visita-${phone}`;
    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'User-Agent': PHONE_BROWSER },
      body: JSON.stringify({
        name: 'Irma Dzul',
        phone,
        kind: VISIT,
        place: MERIDA,
        start: await firstSlot(),
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: campaign,
        gclid: GCLID,
        // The visit began at a buyer's signed link (one of theirs, opened from WhatsApp): its token is not kept.
        landing_path: '/modelos?gclid=x&t=v1.firmado.secreto',
      }),
    });
    expect(booked.status, await booked.clone().text()).toBe(201);
    // Later, a quote from another campaign: the first touch stays the one that brought her.
    const lead = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({ name: 'Irma Dzul', phone, utm_source: 'facebook', utm_campaign: 'otra' }),
    );
    expect(lead.status).toBe(201);
    const [contact] = await sql<{ first_touch: Record<string, string>; last_touch: Record<string, string> }>(
      'SELECT first_touch, last_touch FROM contacts WHERE phone = $1',
      [`+52${phone}`],
    );
    expect(contact?.first_touch).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: campaign,
      gclid: GCLID,
      landing_path: '/modelos?gclid=x',
      client_user_agent: PHONE_BROWSER,
    });
    expect(contact?.last_touch).toMatchObject({ utm_source: 'facebook', utm_campaign: 'otra' });
  });

  it('sends the rest of a batch a platform refuses for one invalid conversion, and keeps only that one to try again', async () => {
    const contacts: string[] = [];
    for (const name of ['Marta Canul', 'Pedro Uc']) {
      const phone = uniquePhone();
      const lead = await postJson(
        `${server.url}/api/quick-quotes`,
        quickQuote({ name, phone, marketing: true, utm_source: 'facebook', fbc: FBC, gclid: GCLID }),
        { 'User-Agent': PHONE_BROWSER },
      );
      expect(lead.status).toBe(201);
      const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
      contacts.push(contact?.id as string);
    }
    const [good, bad] = contacts as [string, string];
    // Both houses sold in one statement: the queue finds their four conversions due together, one batch per platform.
    ads.invalid.add(`won:${bad}`);
    await sql(
      `INSERT INTO ad_conversions (destination, event, event_id, contact_id, occurred_at, value_mxn)
       SELECT d, 'won', 'won:' || c, c, now(), 1500000
       FROM unnest($1::uuid[]) AS c, unnest(ARRAY['meta', 'google']) AS d`,
      [contacts],
    );
    const status = async (id: string) =>
      sql<{ destination: string; status: string; attempts: number; last_error: string | null }>(
        `SELECT destination, status, attempts, last_error FROM ad_conversions WHERE event_id = $1 ORDER BY destination`,
        [`won:${id}`],
      );
    await until(async () => (await status(good)).every((row) => row.status === 'enviado'), 'the valid sale sent');
    await until(async () => (await status(bad)).every((row) => row.attempts === 1), 'the invalid sale tried once');
    expect(sentTo('meta', `won:${good}`)).toHaveLength(1);
    expect(sentTo('google', `won:${good}`)).toHaveLength(1);
    expect(sentTo('meta', `won:${bad}`)).toEqual([]);
    expect(await status(bad)).toEqual([
      { destination: 'google', status: 'pendiente', attempts: 1, last_error: expect.stringMatching(/^Google 400: /) },
      { destination: 'meta', status: 'pendiente', attempts: 1, last_error: 'Meta 400: Invalid parameter' },
    ]);
  });

  it('tells nothing about a person who did not consent, and the report counts what was not sent', async () => {
    const phone = uniquePhone();
    expect(
      (
        await postJson(
          `${server.url}/api/quick-quotes`,
          quickQuote({
            name: 'Jorge Ek',
            phone,
            marketing: false,
            utm_source: 'google',
            utm_medium: 'cpc',
            gclid: GCLID,
          }),
        )
      ).status,
    ).toBe(201);
    const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
    await until(
      async () =>
        (await countRows('ad_conversions', `contact_id = $1 AND status = 'sin_consentimiento'`, [contact?.id])) === 2,
      'both destinations kept unsent',
    );
    expect(sentTo('meta', `lead:${contact?.id}`)).toEqual([]);
    expect(sentTo('google', `lead:${contact?.id}`)).toEqual([]);
    const report = (await (
      await panel(`/api/admin/campaigns?from=${thisMonth()}&to=${thisMonth()}`)
    ).json()) as CampaignReport;
    expect(report.conversions.noConsent).toBeGreaterThanOrEqual(2);
  });

  it('the report is the team’s; its CSV and the spend are administrators’, and the spend is written from the panel only', async () => {
    const month = thisMonth();
    const report = `/api/admin/campaigns?from=${month}&to=${month}`;
    const spend = { source: 'google', campaign: 'otra', month, amountMxn: 100 };
    expect((await fetch(`${server.url}${report}`)).status).toBe(401);
    const adviser = await inviteAdviser(server.url, admin, 'asesora.campanas@ceiba.mx', 'Lupita Uc');
    const asAdviser = (path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, {
        ...init,
        headers: { Cookie: adviser.cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
      });
    expect((await asAdviser(report)).status).toBe(200);
    expect((await asAdviser(`/api/admin/campaigns/export.csv?from=${month}&to=${month}`)).status).toBe(403);
    expect(
      (await asAdviser('/api/admin/campaigns/spend', { method: 'POST', body: JSON.stringify(spend) })).status,
    ).toBe(403);
    const elsewhere = await fetch(`${server.url}/api/admin/campaigns/spend`, {
      method: 'POST',
      headers: { Cookie: admin, Origin: 'https://otro-sitio.example', 'Content-Type': 'application/json' },
      body: JSON.stringify(spend),
    });
    expect(elsewhere.status).toBe(403);
    expect(await countRows('campaign_spend', `campaign = 'otra'`)).toBe(0);

    // Bad input: a Spanish 400, nothing written.
    const negative = await panel('/api/admin/campaigns/spend', {
      method: 'POST',
      body: JSON.stringify({ ...spend, amountMxn: -5 }),
    });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { error: string }).error).toBe('Revisa el gasto de la campaña.');
    const backwards = await panel(`/api/admin/campaigns?from=${month}&to=2020-01`);
    expect(backwards.status).toBe(400);
    expect(((await backwards.json()) as { error: string }).error).toBe('El mes inicial va antes del final.');
    expect(await countRows('campaign_spend', `campaign = 'otra'`)).toBe(0);
  });
});
