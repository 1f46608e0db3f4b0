import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FreeSlot } from '../../src/lib/appointments/booking.ts';
import type { AvailabilityView, CalendarAnswer } from '../../src/lib/appointments/panel.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #40, the panel's side (decision 0061), on the real server and
 * database: a member sets their own availability (an administrator anyone's,
 * an adviser nobody else's), the calendar is scoped to whom a member may see,
 * and a booking from a contact's page uses that contact (never a new one)
 * and is refused 409 on a taken slot.
 */
let server: RunningServer;
let adminCookie: string;
let marta: { id: string; cookie: string };
let beto: { id: string; cookie: string };
const request = memberRequest(() => server.url);
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';

beforeAll(async () => {
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
  adminCookie = await setupAdmin(server.url);
  marta = await inviteAdviser(server.url, adminCookie, 'marta@ceiba.mx', 'Marta Uc');
  beto = await inviteAdviser(server.url, adminCookie, 'beto@ceiba.mx', 'Beto Chan');
});
afterAll(() => server?.stop());

async function newContact(name = 'Irma Dzul'): Promise<{ id: string; phone: string }> {
  const phone = uniquePhone();
  await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone }));
  const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
  return { id: row?.id as string, phone: `+52${phone}` };
}

const everyDay = (starts: string, ends: string) => [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, starts, ends }));

const saveHours = (cookie: string | null, member: string, body: object) =>
  request(cookie, `/api/admin/availability/${member}`, { method: 'PATCH', body: JSON.stringify(body) });

/** Mérida's date `days` from today. */
const meridaDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + days * 86_400_000);

async function slots(): Promise<FreeSlot[]> {
  const response = await fetch(
    `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${meridaDate(0)}&to=${meridaDate(20)}`,
  );
  return ((await response.json()) as { slots: FreeSlot[] }).slots;
}

const book = (cookie: string | null, body: object) =>
  request(cookie, '/api/admin/appointments', { method: 'POST', body: JSON.stringify(body) });

const calendarOf = async (cookie: string, query: string) =>
  request(cookie, `/api/admin/appointments?from=${meridaDate(0)}&to=${meridaDate(30)}${query}`);

describe('availability', () => {
  it('an adviser sets their own weekly hours, kinds and time off, stored as migration 0037 wants, each change audited', async () => {
    const before = await countRows('activity_log', `kind = 'availability_changed'`);
    const saved = await saveHours(marta.cookie, marta.id, {
      timeZone: 'America/Merida',
      weekly: [
        { weekday: 1, starts: '09:00', ends: '13:00' },
        { weekday: 1, starts: '15:00', ends: '19:00' },
        ...everyDay('08:00', '20:00').slice(1),
      ],
      kinds: [VISIT],
    });
    expect(saved.status).toBe(200);
    const view = (await saved.json()) as AvailabilityView;
    expect(view.weekly.filter((range) => range.weekday === 1)).toEqual([
      { weekday: 1, starts: '09:00', ends: '13:00' },
      { weekday: 1, starts: '15:00', ends: '19:00' },
    ]);
    expect(view.kinds).toEqual([VISIT]);
    expect(view.members).toEqual([{ id: marta.id, name: 'Marta Uc' }]);
    const rows = await sql<{ starts: string; time_zone: string }>(
      `SELECT starts::text, time_zone FROM member_weekly_hours WHERE member_id = $1 AND weekday = 1 ORDER BY starts`,
      [marta.id],
    );
    expect(rows).toEqual([
      { starts: '09:00:00', time_zone: 'America/Merida' },
      { starts: '15:00:00', time_zone: 'America/Merida' },
    ]);

    // Time off on her wall clock (Mérida, UTC-6 all year), stored as instants.
    const off = await request(marta.cookie, `/api/admin/availability/${marta.id}/time-off`, {
      method: 'POST',
      body: JSON.stringify({ start: '2030-01-07T09:00', end: '2030-01-07T12:30', reason: 'Médico' }),
    });
    expect(off.status).toBe(201);
    const created = (await off.json()) as { id: string; start: string; end: string };
    expect(created).toMatchObject({ start: '2030-01-07T15:00:00.000Z', end: '2030-01-07T18:30:00.000Z' });
    const [during] = await sql<{ lower: Date; reason: string }>(
      `SELECT lower(during), reason FROM member_time_off WHERE id = $1`,
      [created.id],
    );
    expect(new Date(during?.lower as Date).toISOString()).toBe('2030-01-07T15:00:00.000Z');
    expect(during?.reason).toBe('Médico');
    const removed = await request(marta.cookie, `/api/admin/availability/${marta.id}/time-off/${created.id}`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect(await countRows('member_time_off', `member_id = '${marta.id}'`)).toBe(0);
    expect(await countRows('activity_log', `kind = 'availability_changed'`)).toBe(before + 3);
  });

  it('keeps a member’s clock with no weekly hours: time off typed next is read on it, not on Mérida’s', async () => {
    const berlin = await inviteAdviser(server.url, adminCookie, 'lena@ceiba.mx', 'Lena Vogel');
    const saved = await saveHours(berlin.cookie, berlin.id, { timeZone: 'Europe/Berlin', weekly: [], kinds: [] });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as AvailabilityView).timeZone).toBe('Europe/Berlin');
    const view = await request(berlin.cookie, `/api/admin/availability?member=${berlin.id}`);
    expect(((await view.json()) as AvailabilityView).timeZone).toBe('Europe/Berlin');
    // 09:00 in Berlin in January is 08:00 UTC (Mérida's 09:00 would be 15:00 UTC).
    const off = await request(berlin.cookie, `/api/admin/availability/${berlin.id}/time-off`, {
      method: 'POST',
      body: JSON.stringify({ start: '2030-01-07T09:00', end: '2030-01-07T12:00', reason: 'Trámite' }),
    });
    expect(off.status).toBe(201);
    expect(await off.json()).toMatchObject({ start: '2030-01-07T08:00:00.000Z', end: '2030-01-07T11:00:00.000Z' });
  });

  it('refuses without a session (401), another member’s hours to an adviser (403), and bad input with Spanish words (400)', async () => {
    const body = { timeZone: 'America/Merida', weekly: everyDay('09:00', '18:00'), kinds: [VISIT] };
    expect((await saveHours(null, marta.id, body)).status).toBe(401);
    expect((await request(null, '/api/admin/availability')).status).toBe(401);
    const forbidden = await saveHours(marta.cookie, beto.id, body);
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: string }).error).toMatch(/administrador/);
    expect((await request(marta.cookie, `/api/admin/availability?member=${beto.id}`)).status).toBe(403);
    const offForbidden = await request(marta.cookie, `/api/admin/availability/${beto.id}/time-off`, {
      method: 'POST',
      body: JSON.stringify({ start: '2030-01-07T09:00', end: '2030-01-07T10:00' }),
    });
    expect(offForbidden.status).toBe(403);
    expect(await countRows('member_weekly_hours', `member_id = '${beto.id}'`)).toBe(0);

    const overlapping = await saveHours(marta.cookie, marta.id, {
      ...body,
      weekly: [
        { weekday: 2, starts: '09:00', ends: '12:00' },
        { weekday: 2, starts: '11:00', ends: '14:00' },
      ],
    });
    expect(overlapping.status).toBe(400);
    expect(((await overlapping.json()) as { fields: Record<string, string> }).fields.weekly).toMatch(/se enciman/);
    const backwards = await saveHours(marta.cookie, marta.id, {
      ...body,
      weekly: [{ weekday: 2, starts: '18:00', ends: '09:00' }],
    });
    expect(backwards.status).toBe(400);
    const unknownKind = await saveHours(marta.cookie, marta.id, { ...body, kinds: ['clase-de-yoga'] });
    expect(unknownKind.status).toBe(400);
    // Nothing of the refused saves was written: Marta keeps her two Monday ranges.
    expect(await countRows('member_weekly_hours', `member_id = '${marta.id}' AND weekday = 1`)).toBe(2);
  });

  it('an administrator sets anyone’s hours and sees the whole team to choose from', async () => {
    const saved = await saveHours(adminCookie, beto.id, {
      timeZone: 'America/Mexico_City',
      weekly: everyDay('00:00', '23:59'),
      kinds: [VISIT],
    });
    expect(saved.status).toBe(200);
    const view = (await saved.json()) as AvailabilityView;
    expect(view.timeZone).toBe('America/Mexico_City');
    expect(view.members.map((member) => member.name)).toEqual(expect.arrayContaining(['Marta Uc', 'Beto Chan']));
    const [entry] = await sql<{ actor_id: string; summary: string }>(
      `SELECT actor_id, summary FROM activity_log WHERE kind = 'availability_changed' ORDER BY at DESC LIMIT 1`,
    );
    expect(entry?.summary).toMatch(/Beto Chan/);
  });
});

describe('booking from a contact and the calendar', () => {
  let contact: { id: string; phone: string };
  let booked: { id: string; start: string; contactId: string };

  it('books a free slot for the contact with their own phone and name: no new contact, source panel, audited', async () => {
    // Beto gives nothing from now on: Marta alone gives the visit, so the booking is hers.
    await saveHours(adminCookie, beto.id, { timeZone: 'America/Merida', weekly: [], kinds: [] });
    await saveHours(marta.cookie, marta.id, {
      timeZone: 'America/Merida',
      weekly: everyDay('00:00', '23:59'),
      kinds: [VISIT],
    });
    contact = await newContact('Irma Dzul');
    const contactsBefore = await countRows('contacts');
    const [slot] = await slots();
    expect(slot).toBeDefined();
    const answer = await book(marta.cookie, { contactId: contact.id, kind: VISIT, place: MERIDA, start: slot?.start });
    expect(answer.status).toBe(201);
    booked = (await answer.json()) as typeof booked;
    expect(booked).toMatchObject({ contactId: contact.id, start: slot?.start, status: 'confirmada' });
    expect(await countRows('contacts')).toBe(contactsBefore);
    const [row] = await sql<{ contact_id: string; member_id: string; source: string }>(
      'SELECT contact_id, member_id, source FROM appointments WHERE id = $1',
      [booked.id],
    );
    expect(row).toEqual({ contact_id: contact.id, member_id: marta.id, source: 'panel' });
    expect(await countRows('contact_events', `contact_id = '${contact.id}' AND kind = 'appointment'`)).toBe(1);
    expect(await countRows('activity_log', `kind = 'appointment_booked' AND actor_id = '${marta.id}'`)).toBe(1);
  });

  it('refuses the same slot again with 409 and clear words, writing nothing', async () => {
    const appointments = await countRows('appointments');
    const other = await newContact('Pedro Poot');
    const answer = await book(adminCookie, { contactId: other.id, kind: VISIT, place: MERIDA, start: booked.start });
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as { error: string }).error).toBe('Ese horario ya no está disponible. Elige otro.');
    expect(await countRows('appointments')).toBe(appointments);
    expect(await countRows('activity_log', `kind = 'appointment_booked'`)).toBe(1);
  });

  it('refuses a booking without a session (401), for a contact that does not exist (404), and bad input (400)', async () => {
    const [slot] = await slots();
    const body = { contactId: contact.id, kind: VISIT, place: MERIDA, start: slot?.start };
    expect((await book(null, body)).status).toBe(401);
    expect((await book(marta.cookie, { ...body, contactId: '0190a0a0-0000-7000-8000-000000000000' })).status).toBe(404);
    expect((await book(marta.cookie, { ...body, start: 'mañana' })).status).toBe(400);
    expect((await book(marta.cookie, { ...body, place: 'oficina-cdmx' })).status).toBe(400);
  });

  it('scopes the calendar: an adviser sees their own, never another’s (403); an administrator the team’s or one member’s', async () => {
    const own = (await (await calendarOf(marta.cookie, '')).json()) as CalendarAnswer;
    expect(own.member).toBe(marta.id);
    expect(own.items.map((item) => item.id)).toContain(booked.id);
    const item = own.items.find((entry) => entry.id === booked.id);
    expect(item).toMatchObject({
      status: 'confirmada',
      kindName: 'Visita a la casa muestra',
      placeName: 'Casa muestra Mérida',
      contact: { id: contact.id, name: 'Irma Dzul' },
      member: { id: marta.id, name: 'Marta Uc' },
    });

    const betoOwn = (await (await calendarOf(beto.cookie, '')).json()) as CalendarAnswer;
    expect(betoOwn.items).toEqual([]);
    expect((await calendarOf(beto.cookie, `&member=${marta.id}`)).status).toBe(403);
    expect((await request(null, `/api/admin/appointments?from=${meridaDate(0)}&to=${meridaDate(3)}`)).status).toBe(401);

    const team = (await (await calendarOf(adminCookie, '')).json()) as CalendarAnswer;
    expect(team.member).toBeNull();
    expect(team.items.map((entry) => entry.id)).toContain(booked.id);
    const betoFiltered = (await (await calendarOf(adminCookie, `&member=${beto.id}`)).json()) as CalendarAnswer;
    expect(betoFiltered.items).toEqual([]);

    const tooLong = await request(marta.cookie, `/api/admin/appointments?from=2030-01-01&to=2030-12-31`);
    expect(tooLong.status).toBe(400);
  });

  it('lists a contact’s appointments for any member who opens the contact', async () => {
    const answer = await request(beto.cookie, `/api/admin/appointments?contact=${contact.id}`);
    expect(answer.status).toBe(200);
    const { items } = (await answer.json()) as CalendarAnswer;
    expect(items.map((entry) => entry.id)).toEqual([booked.id]);
    expect(
      (await request(beto.cookie, '/api/admin/appointments?contact=0190a0a0-0000-7000-8000-000000000000')).status,
    ).toBe(404);
  });
});

describe('booking from the panel for a closed contact', () => {
  it('reopens a lost one signed by the member, keeps a won one won, and writes no request nobody sent', async () => {
    await saveHours(marta.cookie, marta.id, {
      timeZone: 'America/Merida',
      weekly: everyDay('00:00', '23:59'),
      kinds: [VISIT],
    });
    const lost = await newContact('Nadia Pech');
    const won = await newContact('Óscar Tun');
    await sql(`UPDATE contacts SET state = 'cerrado_perdido', lost_reason = 'sin_presupuesto' WHERE id = $1`, [
      lost.id,
    ]);
    // The won one came as a partner only: a visit booked for them makes them a buyer too, as a lead would.
    await sql(`UPDATE contacts SET state = 'cerrado_ganado', is_buyer = false, is_partner = true WHERE id = $1`, [
      won.id,
    ]);
    const free = await slots();
    for (const [person, slot] of [
      [lost, free[0]],
      [won, free[5]],
    ] as const) {
      const answer = await book(marta.cookie, { contactId: person.id, kind: VISIT, place: MERIDA, start: slot?.start });
      expect(answer.status, await answer.clone().text()).toBe(201);
    }
    const lines = (id: string) =>
      sql<{ kind: string; actor_name: string | null; detail: string | null }>(
        `SELECT kind, actor_name, detail FROM contact_events WHERE contact_id = $1 AND kind IN ('reopened', 'request_after_sale')`,
        [id],
      );
    expect(await lines(lost.id)).toEqual([
      { kind: 'reopened', actor_name: 'Marta Uc', detail: 'Al agendarle una cita desde el panel' },
    ]);
    expect(await lines(won.id)).toEqual([]);
    const states = await sql<{ id: string; state: string }>(
      'SELECT id, state FROM contacts WHERE id = ANY($1::uuid[])',
      [[lost.id, won.id]],
    );
    expect(Object.fromEntries(states.map((row) => [row.id, row.state]))).toEqual({
      [lost.id]: 'visita_agendada',
      [won.id]: 'cerrado_ganado',
    });
    expect(await sql('SELECT is_buyer, is_partner FROM contacts WHERE id = $1', [won.id])).toEqual([
      { is_buyer: true, is_partner: true },
    ]);
  });

  it('time off over a visit booked already says so: the visit stands', async () => {
    await saveHours(marta.cookie, marta.id, {
      timeZone: 'America/Merida',
      weekly: everyDay('00:00', '23:59'),
      kinds: [VISIT],
    });
    const person = await newContact('Lía Cen');
    const [slot] = (await slots()).slice(-1);
    const made = await book(marta.cookie, { contactId: person.id, kind: VISIT, place: MERIDA, start: slot?.start });
    expect(made.status).toBe(201);
    const visit = (await made.json()) as { id: string; start: string };
    const wall = (instant: string, shift: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'America/Merida',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .format(Date.parse(instant) + shift)
        .replace(' ', 'T');
    onTestFinished(async () => {
      await sql('DELETE FROM member_time_off WHERE member_id = $1', [marta.id]);
    });
    const off = await request(marta.cookie, `/api/admin/availability/${marta.id}/time-off`, {
      method: 'POST',
      body: JSON.stringify({ start: wall(visit.start, -3_600_000), end: wall(visit.start, 3_600_000) }),
    });
    expect(off.status).toBe(201);
    expect(await off.json()).toMatchObject({ appointmentsDuring: 1 });
    // From the visit's end on (its buffer after is not the visit): none.
    const after = await request(marta.cookie, `/api/admin/availability/${marta.id}/time-off`, {
      method: 'POST',
      body: JSON.stringify({ start: wall(visit.start, 3_600_000), end: wall(visit.start, 7_200_000) }),
    });
    expect(await after.json()).toMatchObject({ appointmentsDuring: 0 });
    expect(await sql('SELECT status FROM appointments WHERE id = $1', [visit.id])).toEqual([{ status: 'confirmada' }]);
  });
});
