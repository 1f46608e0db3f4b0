import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { site } from '../../src/data/site.ts';
import { PUSH_SERVICE_UNKNOWN } from '../../src/server/notifications/push-endpoint.ts';
import { reminderMessage } from '../../src/server/notifications/reminders.ts';
import { inboundMessageNotice } from '../../src/server/whatsapp/notify.ts';
import { cookieOf, inviteAdviser, login, memberRequest, setupAdmin } from '../support/admin.ts';
import { preFilter, quickQuote } from '../support/payloads.ts';
import { type PushService, startPushService } from '../support/push-service.ts';
import { type SmtpReceiver, startSmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { untilValue } from '../support/until.ts';

/**
 * Issue #26, item 2: a next contact that comes due reminds the member who
 * follows the contact (administrators when nobody does) once, by e-mail
 * (a real SMTP server) and by Web Push (a fake push service at the network
 * edge, HTTPS on 127.0.0.1, checked against RFC 8030 / 8291 / 8292), and the
 * panel's badge counts it. Moving the next contact moves or cancels it.
 */
let server: RunningServer;
let smtp: SmtpReceiver;
let push: PushService;
let adminCookie: string;
let adviser: { id: string; cookie: string };
const vapid = webpush.generateVAPIDKeys();
const request = memberRequest(() => server.url);
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

beforeAll(async () => {
  [smtp, push] = await Promise.all([startSmtpReceiver(), startPushService()]);
  server = await startServer({
    SITE_URL: 'https://www.ceibacasas.mx',
    SMTP_URL: smtp.url,
    NOTIFY_EMAIL_FROM: 'Avisos Ceiba <avisos@ceibacasas.mx>',
    NOTIFY_EMAIL_TO: 'ventas@ceibacasas.mx',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:avisos@ceibacasas.mx',
    NODE_EXTRA_CA_CERTS: push.caFile,
    // The fake push service's origin is accepted besides the browsers' push services (test-only, decision 0052).
    PUSH_TEST_SERVICE_URL: push.url,
  });
  adminCookie = await setupAdmin(server.url);
  adviser = await inviteAdviser(server.url, adminCookie, 'lucia@ceiba.mx', 'Lucía Pech');
});

afterAll(async () => {
  await server?.stop();
  await Promise.all([smtp?.close(), push?.close()]);
});

async function newContact(): Promise<{ id: string; version: number }> {
  const phone = uniquePhone();
  expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Raúl Canché', phone }))).status).toBe(
    201,
  );
  const [row] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
    `+52${phone}`,
  ]);
  return row as { id: string; version: number };
}

async function patch(cookie: string, id: string, body: object) {
  const response = await request(cookie, `/api/admin/contacts/${id}`, { method: 'PATCH', body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { version: number; nextContactAt: string | null };
}

const reminderJob = async (contactId: string) =>
  (await sql<{ run_at: Date }>(`SELECT run_at FROM graphile_worker.jobs WHERE key = $1`, [`reminder:${contactId}`]))[0];

/** The reminders e-mailed about a contact (its lead's notification also names the person). */
const isReminder = (contactId: string) => (message: { subject?: string; text?: string }) =>
  message.subject?.startsWith('Toca contactar') === true && message.text?.includes(contactId) === true;

const pushesTo = (endpoint: string) => push.requests.filter((entry) => entry.path === new URL(endpoint).pathname);

describe('a next contact comes due', () => {
  it('the adviser who follows it gets one e-mail and one push, at the time', async () => {
    const device = push.device();
    const subscribed = await request(adviser.cookie, '/api/admin/push-subscriptions', {
      method: 'POST',
      body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys, expirationTime: null }),
    });
    expect(subscribed.status).toBe(201);

    const contact = await newContact();
    const assigned = await patch(adminCookie, contact.id, { assignedTo: adviser.id, version: contact.version });
    const badgeBefore = await (await request(adviser.cookie, '/api/admin/reminders')).json();
    expect(badgeBefore).toEqual({ due: 0, scope: 'mine', pushKey: vapid.publicKey });

    // Due three seconds from now: the reminder waits for it, then leaves once.
    const at = new Date(Date.now() + 3000).toISOString();
    const saved = await patch(adviser.cookie, contact.id, { nextContactAt: at, version: assigned.version });
    expect(saved.nextContactAt).toBe(at);
    expect((await reminderJob(contact.id))?.run_at.toISOString()).toBe(at);

    const mail = await smtp.waitForMail(isReminder(contact.id));
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
    expect(mail.to).toMatchObject({ value: [{ address: 'lucia@ceiba.mx' }] });
    expect(mail.subject).toBe(`Toca contactar a Raúl Canché · ${site.brand.name}`);
    expect(mail.text).toContain(`https://www.ceibacasas.mx/admin/prospecto?id=${contact.id}`);

    const [sent] = await untilValue(
      () => pushesTo(device.endpoint),
      (list) => list.length > 0,
      'the push',
    );
    // RFC 8030: a POST with a TTL (and our urgency); RFC 8291: aes128gcm; RFC 8292: a VAPID JWT for the service's origin.
    expect(sent?.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '43200', urgency: 'high' });
    const authorization = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(String(sent?.headers.authorization));
    expect(authorization?.[2]).toBe(vapid.publicKey);
    const raw = Buffer.from(vapid.publicKey, 'base64url');
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    const { payload } = await jwtVerify(authorization?.[1] as string, key, { audience: push.url });
    expect(payload.sub).toBe('mailto:avisos@ceibacasas.mx');
    expect(JSON.parse(device.decrypt(sent?.body as Buffer))).toEqual({
      title: 'Toca contactar a Raúl Canché',
      body: expect.stringMatching(/^Próximo contacto: /),
      url: `/admin/prospecto?id=${contact.id}`,
      tag: `recordatorio-${contact.id}`,
    });

    // Due today it is "Para hoy", not "vencido": the badge counts what "Hoy" calls "Vencidos" (decision 0053).
    expect((await (await request(adviser.cookie, '/api/admin/reminders')).json()).due).toBe(0);
    // Once: the job is done, one delivery, one push, and the moment is marked reminded.
    await untilValue(
      () => reminderJob(contact.id),
      (job) => job === undefined,
      'the job to finish',
    );
    expect(await countRows('notification_deliveries', "purpose = 'reminder' AND contact_id = $1", [contact.id])).toBe(
      1,
    );
    const [row] = await sql<{ reminded_for: Date }>('SELECT reminded_for FROM contacts WHERE id = $1', [contact.id]);
    expect(row?.reminded_for.toISOString()).toBe(at);
    expect(pushesTo(device.endpoint)).toHaveLength(1);
    expect(smtp.messages.filter(isReminder(contact.id))).toHaveLength(1);
  });

  it('rescheduling moves the reminder, clearing or closing cancels it', async () => {
    const contact = await newContact();
    const soon = new Date(Date.now() + 60 * 60_000).toISOString();
    const first = await patch(adminCookie, contact.id, { nextContactAt: soon, version: contact.version });
    expect((await reminderJob(contact.id))?.run_at.toISOString()).toBe(soon);
    const later = new Date(Date.now() + 26 * 60 * 60_000).toISOString();
    const moved = await patch(adminCookie, contact.id, { nextContactAt: later, version: first.version });
    expect((await reminderJob(contact.id))?.run_at.toISOString()).toBe(later);
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${contact.id}`])).toBe(1);
    const cleared = await patch(adminCookie, contact.id, { nextContactAt: null, version: moved.version });
    expect(await reminderJob(contact.id)).toBeUndefined();
    const again = await patch(adminCookie, contact.id, { nextContactAt: later, version: cleared.version });
    expect(await reminderJob(contact.id)).toBeDefined();
    await patch(adminCookie, contact.id, { state: 'cerrado_ganado', version: again.version });
    expect(await reminderJob(contact.id)).toBeUndefined();
  });

  it('nobody follows it: the administrators are reminded; a device that is gone is forgotten', async () => {
    const device = push.device();
    await request(adminCookie, '/api/admin/push-subscriptions', {
      method: 'POST',
      body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }),
    });
    push.gone(device.endpoint);
    const contact = await newContact();
    // A moment already past (the panel warns, and saves): due at once.
    await patch(adminCookie, contact.id, {
      nextContactAt: new Date(Date.now() - 60_000).toISOString(),
      version: contact.version,
    });
    const mail = await smtp.waitForMail(isReminder(contact.id));
    expect(mail.to).toMatchObject({ value: [{ address: 'admin@ceiba.mx' }] });
    await untilValue(
      () => countRows('push_subscriptions', 'endpoint = $1', [device.endpoint]),
      (count) => count === 0,
      'the gone device to be forgotten',
    );
    expect(pushesTo(device.endpoint)).toHaveLength(1);
  });

  it('a device signed out of, or left behind by a change of password, gets no more names of leads', async () => {
    const member = await inviteAdviser(server.url, adminCookie, 'mario@ceiba.mx', 'Mario Uc');
    const signIn = async () => cookieOf(await login(server.url, 'mario@ceiba.mx', 'asesor-seguro-1'));
    const [phoneSession, sharedSession] = [await signIn(), await signIn()];
    const [phone, shared, laptop] = [push.device(), push.device(), push.device()];
    for (const [cookie, device] of [
      [phoneSession, phone],
      [sharedSession, shared],
      [member.cookie, laptop],
    ] as const) {
      const subscribed = await request(cookie, '/api/admin/push-subscriptions', {
        method: 'POST',
        body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }),
      });
      expect(subscribed.status).toBe(201);
    }
    const devices = async () =>
      (
        await sql<{ endpoint: string }>(
          'SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint',
          [member.id],
        )
      ).map((row) => row.endpoint);
    // Signing out on a shared computer forgets its device.
    expect((await request(sharedSession, '/api/auth/logout', { method: 'POST' })).status).toBe(204);
    expect(await devices()).toEqual([phone.endpoint, laptop.endpoint].sort());
    // A new password, chosen on the laptop to lock out a lost phone: the phone's session ends, and its device.
    const changed = await request(member.cookie, '/api/auth/password', {
      method: 'POST',
      body: JSON.stringify({ current: 'asesor-seguro-1', password: 'otra-clave-segura-1' }),
    });
    expect(changed.status).toBe(204);
    expect(await devices()).toEqual([laptop.endpoint]);

    // Their next reminder reaches the laptop alone.
    const contact = await newContact();
    await patch(adminCookie, contact.id, {
      assignedTo: member.id,
      nextContactAt: new Date(Date.now() - 60_000).toISOString(),
      version: contact.version,
    });
    await smtp.waitForMail(isReminder(contact.id));
    await untilValue(
      () => pushesTo(laptop.endpoint),
      (list) => list.length === 1,
      'the laptop’s push',
    );
    expect(pushesTo(phone.endpoint)).toEqual([]);
    expect(pushesTo(shared.endpoint)).toEqual([]);
  });
});

describe('a member who leaves the team', () => {
  it('gets nothing queued for them before: a reminder or a WhatsApp notice tried again finds no one to write to', async () => {
    const member = await inviteAdviser(server.url, adminCookie, 'rene@ceiba.mx', 'René Uc');
    const contact = await newContact();
    // The queue's retry builds the message again from the database (deliver.ts): what it finds decides.
    const db = {
      query: async (text: string, values?: unknown[]) => ({ rows: await sql(text, values), rowCount: null }),
    };
    const site = 'https://www.ceibacasas.mx';
    expect(await reminderMessage(db as never, contact.id, member.id, new Date(), site)).toMatchObject({
      to: 'rene@ceiba.mx',
    });
    await sql('UPDATE users SET deactivated_at = now() WHERE id = $1', [member.id]);
    expect(await reminderMessage(db as never, contact.id, member.id, new Date(), site)).toBeNull();
    expect(await inboundMessageNotice(db as never, contact.id, member.id, site)).toBeNull();
  });

  it('a reminder still being tried when its adviser leaves goes to the administrators, not nowhere', async () => {
    const member = await inviteAdviser(server.url, adminCookie, 'ines@ceiba.mx', 'Inés Pool');
    const contact = await newContact();
    const at = new Date(Date.now() - 60_000);
    // Due and reminded: its e-mail to the adviser waits for its next try (the mail server refused the first).
    await sql('UPDATE contacts SET assigned_to = $2, next_contact_at = $3, reminded_for = $3 WHERE id = $1', [
      contact.id,
      member.id,
      at,
    ]);
    const [delivery] = await sql<{ id: string }>(
      `INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id, remind_at, status, attempts,
                                            next_attempt_at, last_error)
       VALUES ('reminder', 'email', $1, $2, $3, 'pending', 1, now() + interval '1 hour', 'El servidor SMTP no respondió')
       RETURNING id`,
      [contact.id, member.id, at],
    );
    await sql('UPDATE users SET deactivated_at = now() WHERE id = $1', [member.id]);
    const retried = await request(adminCookie, `/api/admin/notifications/${delivery?.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    const mail = await smtp.waitForMail(isReminder(contact.id));
    expect(mail.to).toMatchObject({ value: [{ address: 'admin@ceiba.mx' }] });
  });
});

describe('the push subscription endpoint', () => {
  it('asks for a session, our origin and a well-formed subscription, in Spanish', async () => {
    const device = push.device();
    const body = JSON.stringify({ endpoint: device.endpoint, keys: device.keys });
    expect((await request(null, '/api/admin/push-subscriptions', { method: 'POST', body })).status).toBe(401);
    const foreign = await request(adviser.cookie, '/api/admin/push-subscriptions', {
      method: 'POST',
      body,
      headers: { Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    for (const bad of [
      { endpoint: 'http://127.0.0.1/push/x', keys: device.keys },
      { endpoint: device.endpoint, keys: { p256dh: 'corto', auth: device.keys.auth } },
      { endpoint: device.endpoint },
    ]) {
      const refused = await request(adviser.cookie, '/api/admin/push-subscriptions', {
        method: 'POST',
        body: JSON.stringify(bad),
      });
      expect(refused.status).toBe(400);
      expect(Object.values((await refused.json()).fields).join(' ')).toMatch(/suscripción no válida/);
    }
    expect(await countRows('push_subscriptions', 'endpoint = $1', [device.endpoint])).toBe(0);
    expect((await request(null, '/api/admin/reminders')).status).toBe(401);
    // Unsubscribing removes only one's own device.
    await request(adviser.cookie, '/api/admin/push-subscriptions', { method: 'POST', body });
    expect((await request(adminCookie, '/api/admin/push-subscriptions', { method: 'DELETE', body })).status).toBe(204);
    expect(await countRows('push_subscriptions', 'endpoint = $1', [device.endpoint])).toBe(1);
    expect((await request(adviser.cookie, '/api/admin/push-subscriptions', { method: 'DELETE', body })).status).toBe(
      204,
    );
    expect(await countRows('push_subscriptions', 'endpoint = $1', [device.endpoint])).toBe(0);
  });
});

describe('a push endpoint is a browser’s push service (issue #38, item 4)', () => {
  it('refuses loopback, IP literals, private hosts and the site’s own URLs with a Spanish 400, storing nothing', async () => {
    const device = push.device();
    const port = new URL(push.url).port;
    const subscriptions = await countRows('push_subscriptions');
    for (const endpoint of [
      'https://127.0.0.1:4728/admin/push',
      `https://127.0.0.1:${Number(port) + 1}/push/x`,
      `https://localhost:${port}/push/x`,
      'https://[::1]/push/x',
      'https://2130706433/push/x',
      'https://0x7f.1/push/x',
      'https://10.0.0.5/push/x',
      'https://169.254.169.254/latest/meta-data/',
      `${server.url.replace('http:', 'https:')}/api/admin/contacts`,
      'https://www.ceibacasas.mx/api/admin/team',
      'https://fcm.googleapis.com.evil.example/fcm/send/x',
      'https://evil.example/fcm.googleapis.com/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user@fcm.googleapis.com/fcm/send/x',
    ]) {
      const refused = await request(adviser.cookie, '/api/admin/push-subscriptions', {
        method: 'POST',
        body: JSON.stringify({ endpoint, keys: device.keys }),
      });
      expect(refused.status, endpoint).toBe(400);
      expect(await refused.json(), endpoint).toEqual({
        error: PUSH_SERVICE_UNKNOWN,
        fields: { endpoint: PUSH_SERVICE_UNKNOWN },
      });
    }
    expect(await countRows('push_subscriptions')).toBe(subscriptions);
  });

  it('a device stored before the check, outside any push service, is forgotten without a connection', async () => {
    const elsewhere = await startPushService();
    try {
      const device = elsewhere.device();
      // As a row an older deploy accepted: the member's device on another local port.
      await sql('INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)', [
        adviser.id,
        device.endpoint,
        device.keys.p256dh,
        device.keys.auth,
      ]);
      const contact = await newContact();
      const assigned = await patch(adminCookie, contact.id, { assignedTo: adviser.id, version: contact.version });
      await patch(adminCookie, contact.id, {
        nextContactAt: new Date(Date.now() - 60_000).toISOString(),
        version: assigned.version,
      });
      await smtp.waitForMail(isReminder(contact.id));
      await untilValue(
        () => countRows('push_subscriptions', 'endpoint = $1', [device.endpoint]),
        (count) => count === 0,
        'the refused device to be forgotten',
      );
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('a won customer’s new request (issue #38, item 12)', () => {
  it('leaves the contact won and e-mails the request to its adviser too', async () => {
    const phone = uniquePhone();
    const first = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Raúl Canché', phone }));
    const { id: firstLead } = (await first.json()) as { id: string };
    // Its e-mail is sent before the contact has an adviser: to the team only (on a busy machine it was sent
    // after the assignment below, to the adviser too).
    const firstMail = await smtp.waitForMail((mail) => String(mail.messageId).startsWith(`<${firstLead}.`));
    expect(firstMail.to).toMatchObject({ value: [{ address: 'ventas@ceibacasas.mx' }] });
    const [row] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
      `+52${phone}`,
    ]);
    const contact = row as { id: string; version: number };
    const assigned = await patch(adminCookie, contact.id, { assignedTo: adviser.id, version: contact.version });
    await patch(adviser.cookie, contact.id, { state: 'cerrado_ganado', version: assigned.version });

    const again = await postJson(`${server.url}/api/quote-requests`, preFilter({ name: 'Raúl Canché', phone }));
    expect(again.status).toBe(201);
    const { id: lead } = (await again.json()) as { id: string };
    const mail = await smtp.waitForMail((message) => String(message.messageId).startsWith(`<${lead}.`));
    expect(mail.to).toMatchObject({ value: [{ address: 'ventas@ceibacasas.mx' }, { address: 'lucia@ceiba.mx' }] });
    expect(mail.text).toContain('Es de un cliente con venta cerrada: sigue en «Cerrado: ganado».');
    const [after] = await sql<{ state: string }>('SELECT state FROM contacts WHERE id = $1', [contact.id]);
    expect(after?.state).toBe('cerrado_ganado');
  });
});
