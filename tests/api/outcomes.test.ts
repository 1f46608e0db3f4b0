import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meridaWallTime } from '../../src/lib/admin/merida-time.ts';
import { PUSH_OFF } from '../../src/lib/admin/push.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #26, item 3: one-tap outcomes and the attempts of Llamar and
 * WhatsApp, on the real server and database: who may, what is written, and
 * that the outcome and its history commit together or not at all.
 */
let server: RunningServer;
let adminCookie: string;
let adviser: { id: string; cookie: string };
const request = memberRequest(() => server.url);
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

beforeAll(async () => {
  server = await startServer();
  adminCookie = await setupAdmin(server.url);
  adviser = await inviteAdviser(server.url, adminCookie, 'marta@ceiba.mx', 'Marta Uc');
});
afterAll(() => server?.stop());

async function newContact(): Promise<string> {
  const phone = uniquePhone();
  await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Irma Dzul', phone }));
  const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
  return row?.id as string;
}

const outcome = (cookie: string | null, id: string, body: object, headers: Record<string, string> = {}) =>
  request(cookie, `/api/admin/contacts/${id}/outcomes`, { method: 'POST', body: JSON.stringify(body), headers });
const attempt = (cookie: string | null, id: string, channel: string) =>
  request(cookie, `/api/admin/contacts/${id}/attempts`, { method: 'POST', body: JSON.stringify({ channel }) });

interface Detail {
  state: string;
  lostReason: string | null;
  nextContactAt: string | null;
  attempts: number;
  version: number;
  lastActivityAt: string;
  timeline: { type: string; kind?: string; to?: string | null; detail?: string | null; actor?: string | null }[];
}
const detail = async (id: string) => (await (await request(adminCookie, `/api/admin/contacts/${id}`)).json()) as Detail;

describe('an outcome in one tap', () => {
  it('Llamar, then "No contestó": one attempt, the outcome with its note on the timeline, next contact tomorrow 10:00', async () => {
    const id = await newContact();
    expect((await attempt(adviser.cookie, id, 'llamada')).status).toBe(204);
    const answer = await outcome(adviser.cookie, id, { outcome: 'no_contesto', note: 'Buzón de voz' });
    expect(answer.status).toBe(200);
    // The answer is the follow-up the outcome left, as the contact's page then reads it.
    const saved = await answer.json();
    const contact = await detail(id);
    expect(saved).toEqual({
      id,
      state: 'nuevo',
      lostReason: null,
      nextContactAt: contact.nextContactAt,
      attempts: 1,
      version: contact.version,
      lastActivityAt: contact.lastActivityAt,
      appointmentsAhead: 0,
      appointmentsAheadOfOthers: 0,
    });
    expect(contact).toMatchObject({ state: 'nuevo', attempts: 1 });
    // Tomorrow at 10:00 on Mérida's clock, whatever the server's own zone.
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(meridaWallTime(contact.nextContactAt as string)).toBe(`${meridaWallTime(tomorrow).slice(0, 10)}T10:00`);
    const events = contact.timeline.filter((entry) => entry.type === 'event');
    expect(events).toEqual([
      expect.objectContaining({ kind: 'attempt', to: 'llamada', actor: 'Marta Uc' }),
      expect.objectContaining({ kind: 'next_contact', to: contact.nextContactAt }),
      expect.objectContaining({ kind: 'outcome', to: 'no_contesto', detail: 'Buzón de voz', actor: 'Marta Uc' }),
    ]);
    // No e-mail and no Web Push configured here: no reminder job to pile up (the badge counts it anyway;
    // with a channel the job is scheduled with the change: reminders.test.ts).
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${id}`])).toBe(0);
  });

  it('counts attempts: an outcome without a press counts one; a WhatsApp then an outcome count one', async () => {
    const id = await newContact();
    await outcome(adviser.cookie, id, { outcome: 'no_contesto' });
    expect((await detail(id)).attempts).toBe(1);
    await attempt(adviser.cookie, id, 'whatsapp');
    // The outcome tells how the WhatsApp went: it counts no other attempt, and its answer says so.
    const told = await outcome(adviser.cookie, id, { outcome: 'hablamos', nextContactAt: null });
    expect(await told.json()).toMatchObject({ attempts: 2, state: 'contactado', nextContactAt: null });
    const contact = await detail(id);
    expect(contact).toMatchObject({ attempts: 2, state: 'contactado', nextContactAt: null });
    await attempt(adviser.cookie, id, 'llamada');
    await attempt(adviser.cookie, id, 'llamada');
    expect((await detail(id)).attempts).toBe(4);
  });

  it('moves the state forward only; "No le interesa" closes it with its reason and clears the next contact', async () => {
    const id = await newContact();
    const visit = '2026-12-03T11:30:00-06:00';
    const agreed = (await (
      await outcome(adminCookie, id, { outcome: 'agendo_visita', nextContactAt: visit })
    ).json()) as Detail;
    expect(agreed).toMatchObject({ state: 'en_seguimiento', nextContactAt: '2026-12-03T17:30:00.000Z' });
    const talked = (await (await outcome(adminCookie, id, { outcome: 'hablamos' })).json()) as Detail;
    expect(talked.state).toBe('en_seguimiento');
    const lost = (await (
      await outcome(adminCookie, id, { outcome: 'no_le_interesa', lostReason: 'sin_presupuesto' })
    ).json()) as Detail;
    expect(lost).toMatchObject({ state: 'cerrado_perdido', lostReason: 'sin_presupuesto', nextContactAt: null });
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${id}`])).toBe(0);
    const [log] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'state_change' AND details ->> 'contact' = $1
       ORDER BY at DESC LIMIT 1`,
      [id],
    );
    expect(log?.summary).toBe('Cambió el estado de Irma Dzul a «Cerrado: perdido» («No le interesa»)');
  });

  it('"No le interesa" with a visit still booked says so: the visit stands until someone cancels it', async () => {
    const id = await newContact();
    // A visit in three days with nobody's name on it, one in five days the adviser gives, and a hold whose time
    // to pay ran out (it holds nothing).
    for (const [days, status, hold, member] of [
      [3, 'confirmada', null, null],
      [5, 'confirmada', null, adviser.id],
      [4, 'por_pagar', '-1 hour', null],
    ] as const) {
      await sql(
        `INSERT INTO appointments (contact_id, kind, place, starts_at, ends_at, blocked, status, source, hold_until, price_mxn, member_id)
         SELECT $1, 'visita-casa-muestra', 'casa-muestra-merida', s, s + interval '1 hour',
                tstzrange(s, s + interval '1 hour'), $3, 'panel', now() + $4::interval, CASE WHEN $3 = 'por_pagar' THEN 499 END, $5
         FROM (SELECT now() + make_interval(days => $2) AS s) t`,
        [id, days, status, hold ?? '0 hours', member],
      );
    }
    // The adviser closes it: two visits stand, one of them not hers to cancel.
    const lost = await outcome(adviser.cookie, id, { outcome: 'no_le_interesa', lostReason: 'sin_presupuesto' });
    expect(await lost.json()).toMatchObject({
      state: 'cerrado_perdido',
      appointmentsAhead: 2,
      appointmentsAheadOfOthers: 1,
    });
  });

  it('never moves a closed contact to the other closed state: a «No le interesa» pressed on a stale card leaves a sale won', async () => {
    const id = await newContact();
    const { version } = await detail(id);
    // An administrator closes the sale while an adviser's card still shows the contact open.
    const won = await request(adminCookie, `/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_ganado', version }),
    });
    expect(won.status).toBe(200);
    const pressed = await outcome(adminCookie, id, { outcome: 'no_le_interesa' });
    expect(pressed.status).toBe(200);
    expect(((await pressed.json()) as Detail).state).toBe('cerrado_ganado');
    expect((await detail(id)).state).toBe('cerrado_ganado');
  });

  it('an outcome on a closed contact keeps it as it was closed: its reason, and no next contact', async () => {
    const id = await newContact();
    const lost = (await (
      await outcome(adminCookie, id, { outcome: 'no_le_interesa', lostReason: 'sin_presupuesto' })
    ).json()) as Detail;
    expect(lost).toMatchObject({ state: 'cerrado_perdido', lostReason: 'sin_presupuesto', nextContactAt: null });
    // "Hablamos" on its card, the sheet's picker still at «Otro» and its proposed next contact sent.
    const talked = await outcome(adminCookie, id, {
      outcome: 'hablamos',
      lostReason: 'otro',
      nextContactAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    expect(talked.status).toBe(200);
    expect(await talked.json()).toMatchObject({
      state: 'cerrado_perdido',
      lostReason: 'sin_presupuesto',
      nextContactAt: null,
    });
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${id}`])).toBe(0);
  });

  it('closing a contact clears its next contact; a save of the same state writes no state change to the log', async () => {
    const id = await newContact();
    const { version } = await detail(id);
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const followed = (await (
      await request(adminCookie, `/api/admin/contacts/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ state: 'contactado', nextContactAt: soon, version }),
      })
    ).json()) as Detail & { version: number };
    // The follow-up form sends its state with every save: only the date changes here.
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const moved = (await (
      await request(adminCookie, `/api/admin/contacts/${id}`, {
        method: 'PATCH',
        body: JSON.stringify({ state: 'contactado', nextContactAt: later, version: followed.version }),
      })
    ).json()) as Detail & { version: number };
    expect(await countRows('activity_log', `kind = 'state_change' AND details ->> 'contact' = $1`, [id])).toBe(1);
    const won = await request(adminCookie, `/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'cerrado_ganado', version: moved.version }),
    });
    expect(won.status).toBe(200);
    expect(await won.json()).toMatchObject({ state: 'cerrado_ganado', nextContactAt: null });
  });

  it('the outcome and its history commit together: a refused history line leaves the contact as it was', async () => {
    const id = await newContact();
    await sql(`CREATE FUNCTION refuse_outcome() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await sql(`CREATE TRIGGER refuse_outcome BEFORE INSERT ON contact_events FOR EACH ROW
               WHEN (NEW.kind = 'outcome') EXECUTE FUNCTION refuse_outcome()`);
    try {
      const refused = await outcome(adminCookie, id, { outcome: 'agendo_visita' });
      expect(refused.status).toBe(503);
    } finally {
      await sql('DROP TRIGGER refuse_outcome ON contact_events');
      await sql('DROP FUNCTION refuse_outcome()');
    }
    const contact = await detail(id);
    expect(contact).toMatchObject({ state: 'nuevo', attempts: 0, nextContactAt: null });
    expect(contact.timeline.filter((entry) => entry.type === 'event')).toEqual([]);
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${id}`])).toBe(0);
  });
});

describe('who may, and what is refused', () => {
  it('401 without a session, 403 without a role or from another origin, 404 for no such contact', async () => {
    const id = await newContact();
    expect((await outcome(null, id, { outcome: 'hablamos' })).status).toBe(401);
    expect((await attempt(null, id, 'llamada')).status).toBe(401);
    const foreign = await outcome(adviser.cookie, id, { outcome: 'hablamos' }, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const roleless = await inviteAdviser(server.url, adminCookie, 'sinrol@ceiba.mx', 'Sin Rol');
    await sql('DELETE FROM user_roles WHERE user_id = $1', [roleless.id]);
    expect((await outcome(roleless.cookie, id, { outcome: 'hablamos' })).status).toBe(403);
    expect((await attempt(roleless.cookie, id, 'llamada')).status).toBe(403);
    const missing = '00000000-0000-4000-8000-000000000000';
    const notFound = await outcome(adviser.cookie, missing, { outcome: 'hablamos' });
    expect(notFound.status).toBe(404);
    expect((await notFound.json()).error).toBe('No encontramos este prospecto.');
    expect((await attempt(adviser.cookie, missing, 'llamada')).status).toBe(404);
    expect((await detail(id)).attempts).toBe(0);
  });

  it('400 in Spanish for an unknown outcome, a bad moment, a long note, an extra field or an unknown channel', async () => {
    const id = await newContact();
    for (const [body, field] of [
      [{ outcome: 'quizas' }, /Elige un resultado de la lista/],
      [{ outcome: 'hablamos', nextContactAt: '2026-02-30T10:00:00Z' }, /fecha y hora válidas/],
      [{ outcome: 'hablamos', nextContactAt: 'mañana' }, /fecha y hora válidas/],
      [{ outcome: 'hablamos', note: 'x'.repeat(501) }, /como máximo 500/],
      [{ outcome: 'hablamos', note: 'a\u0000b' }, /caracteres no válidos/],
      [{ outcome: 'hablamos', state: 'nuevo' }, /Solo se pueden enviar/],
    ] as const) {
      const response = await outcome(adviser.cookie, id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = await response.json();
      expect(answer.error).toBe('Revisa el resultado.');
      expect(Object.values(answer.fields ?? {}).join(' '), JSON.stringify(body)).toMatch(field);
    }
    const unknown = await attempt(adviser.cookie, id, 'paloma');
    expect(unknown.status).toBe(400);
    expect(Object.values((await unknown.json()).fields).join(' ')).toBe('Elige llamada o WhatsApp.');
    expect(await detail(id)).toMatchObject({ attempts: 0, state: 'nuevo' });
  });
});

describe('without VAPID keys', () => {
  it('push is off: no key for the browser, and a subscription is refused with a 409 in Spanish', async () => {
    const reminders = await request(adviser.cookie, '/api/admin/reminders');
    expect(await reminders.json()).toEqual({ due: 0, scope: 'mine', pushKey: null });
    const subscription = {
      endpoint: `https://push.example.com/${randomBytes(8).toString('hex')}`,
      keys: {
        p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      },
    };
    const refused = await request(adviser.cookie, '/api/admin/push-subscriptions', {
      method: 'POST',
      body: JSON.stringify(subscription),
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe(PUSH_OFF);
    expect(await countRows('push_subscriptions')).toBe(0);
  });
});
