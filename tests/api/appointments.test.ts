import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENTS } from '../../src/data/appointments.ts';
import { PRIVACY_NOTICE_VERSION } from '../../src/data/legal.ts';
import { BOOKING_MESSAGES, type FreeSlot } from '../../src/lib/appointments/booking.ts';
import { availableSlots } from '../../src/server/appointments/availability.ts';
import { kindAndPlace } from '../../src/server/appointments/book.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { originOf } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #40's foundation (decision 0058): the public free slots and booking
 * over HTTP, on one server for the whole file. Ana is the only member who
 * gives the visit and the advisory, every day from 00:00 to 23:59 Mérida
 * time, so the place's hours decide the slots.
 */

let server: RunningServer;
let ana: string;
const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';

/** Today and `days` later on Mérida's calendar. */
function meridaDates(days: number): { from: string; to: string } {
  const date = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * 86_400_000);
  return { from: date(0), to: date(days) };
}

async function slotsOf(kind = VISIT, place = MERIDA, days = 20): Promise<FreeSlot[]> {
  const { from, to } = meridaDates(days);
  const response = await fetch(
    `${server.url}/api/appointments/slots?kind=${kind}&place=${place}&from=${from}&to=${to}`,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { slots: FreeSlot[] }).slots;
}

/** `count` slots each starting at least three hours after the one before ends: no buffer of one touches another. */
function spaced(slots: readonly FreeSlot[], count: number): FreeSlot[] {
  const picked: FreeSlot[] = [];
  for (const slot of slots) {
    const last = picked.at(-1);
    if (!last || Date.parse(slot.start) >= Date.parse(last.end) + 3 * 3_600_000) picked.push(slot);
    if (picked.length === count) return picked;
  }
  throw new Error(`only ${picked.length} spaced slots of ${count}`);
}

const book = (body: Record<string, unknown>, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${server.url}/api/appointments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), ...headers },
    body: JSON.stringify(body),
    signal,
  });

const visitor = (start: string, overrides: Record<string, unknown> = {}) => ({
  name: 'María José Pech',
  phone: '999 123 4567',
  kind: VISIT,
  place: MERIDA,
  start,
  ...overrides,
});

let plan: FreeSlot[];

beforeAll(async () => {
  // Fifty booking attempts at once from this machine: past the function's own rateLimit (tested in platform-rate-limit);
  // the per-IP limit is far above what this file sends until its last test fills it.
  server = await startServer({ PLATFORM_RATE_LIMIT: '0', LEAD_RATE_LIMIT: '1000' });
  const [member] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ('ana@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Ana Canul') RETURNING id`,
  );
  ana = member?.id ?? '';
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [ana]);
  await sql(
    `INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, 'visita-casa-muestra'), ($1, 'asesoria-personalizada')`,
    [ana],
  );
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [ana],
  );
  plan = spaced(await slotsOf(), 10);
});

afterAll(async () => {
  await server?.stop();
});

describe('free slots', () => {
  it('lists the seeded member’s free slots inside the place’s hours, as instants', async () => {
    const { from, to } = meridaDates(20);
    const response = await fetch(
      `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${from}&to=${to}`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = (await response.json()) as { timeZone: string; durationMinutes: number; slots: FreeSlot[] };
    expect(answer).toMatchObject({ kind: VISIT, place: MERIDA, timeZone: 'America/Merida', durationMinutes: 60 });
    expect(answer.slots.length).toBeGreaterThan(20);
    const place = APPOINTMENTS.places.find((entry) => entry.id === MERIDA);
    for (const slot of answer.slots) {
      expect(slot.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(60 * 60_000);
      // Mérida is UTC-6 all year: its 09:00 is 15:00 UTC.
      const hour = new Date(slot.start).getUTCHours() - 6;
      expect(hour).toBeGreaterThanOrEqual(9);
      expect(place?.holidays).not.toContain(slot.start.slice(0, 10));
      expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(Date.now() + 12 * 3_600_000 - 60_000);
    }
  });

  it('leaves out the member’s time off and gives back the slots when it is gone', async () => {
    const before = await slotsOf();
    const last = before.at(-1) as FreeSlot;
    await sql(`INSERT INTO member_time_off (member_id, during, reason) VALUES ($1, tstzrange($2, $3), 'Médico')`, [
      ana,
      last.start,
      last.end,
    ]);
    const during = (await slotsOf()).map((slot) => slot.start);
    expect(during).not.toContain(last.start);
    // The slots around it hold their own time only: the one before ends as the time off begins.
    expect(during).toContain(new Date(Date.parse(last.start) - 3_600_000).toISOString());
    await sql(`DELETE FROM member_time_off WHERE member_id = $1`, [ana]);
    expect((await slotsOf()).map((slot) => slot.start)).toContain(last.start);
  });

  it('a list made earlier in the minute loses the starts whose notice ran out since; a change to the calendar makes a new one', async () => {
    const { kind, place } = kindAndPlace(VISIT, MERIDA);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const window = { from: minute, to: minute + 10 * 86_400_000 };
    const list = (now: number) =>
      withDatabase((db) => availableSlots(db, kind, place, window.from, window.to, now)).then((slots) =>
        slots.map((slot) => slot.start),
      );
    const first = await list(minute);
    const notice = kind.minimumNoticeHours * 3_600_000;
    // The first start's notice runs out at a whole minute: asked at that instant it is offered; asked 1 ms
    // later, in the same minute (the list made at the instant before), it is not.
    const next = first[0] as number;
    const exactly = await list(next - notice);
    expect(exactly[0]).toBe(next);
    expect(await list(next - notice + 1)).toEqual(exactly.slice(1));
    // Time off taken now is seen at once, in the same minute (the member's calendar has a new version).
    const taken = first[3] as number;
    await sql(`INSERT INTO member_time_off (member_id, during, reason) VALUES ($1, tstzrange($2, $3), 'Curso')`, [
      ana,
      new Date(taken).toISOString(),
      new Date(taken + 3_600_000).toISOString(),
    ]);
    try {
      expect(await list(minute)).not.toContain(taken);
    } finally {
      await sql(`DELETE FROM member_time_off WHERE member_id = $1`, [ana]);
    }
    expect(await list(minute)).toContain(taken);
  });

  it('answers a wrong query with a Spanish 4xx, never a 500', async () => {
    const ask = (query: string) => fetch(`${server.url}/api/appointments/slots?${query}`);
    const missing = await ask('kind=visita-casa-muestra');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      error: BOOKING_MESSAGES.invalid,
      fields: { place: 'Elige el lugar de la cita.', from: expect.stringContaining('año-mes-día') },
    });
    const long = await ask(`kind=${VISIT}&place=${MERIDA}&from=2027-01-01&to=2027-06-01`);
    expect(long.status).toBe(400);
    expect((await long.json()).fields.to).toBe('Pide como máximo 62 días a la vez.');
    const impossible = await ask(`kind=${VISIT}&place=${MERIDA}&from=2027-02-30&to=2027-03-01`);
    expect(impossible.status).toBe(400);
    const unknown = await ask(`kind=clase-de-yoga&place=${MERIDA}&from=2027-01-01&to=2027-01-02`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe(BOOKING_MESSAGES.unknownKind);
    const elsewhere = await ask(`kind=${VISIT}&place=oficina-cdmx&from=2027-01-01&to=2027-01-02`);
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()).error).toBe(BOOKING_MESSAGES.unknownPlace);
  });
});

/**
 * Runs `during` while a booking of Ana's at `slot` for a new contact (`phone`, `name`) has been placed by another
 * connection and not committed; that booking is rolled back after, whatever happened.
 */
async function whilePlacing(slot: FreeSlot, phone: string, name: string, during: () => Promise<void>): Promise<void> {
  const [contact] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, $2, true) RETURNING id`,
    [phone, name],
  );
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
  try {
    await other.query('BEGIN');
    const placed = await other.query(
      `SELECT id FROM place_appointment($1, ARRAY[$2]::uuid[], $3, $4, $5, $6, tstzrange($5, $6), 'confirmada', 'panel',
         NULL, NULL, $7, NULL, NULL, 'en curso') WHERE id IS NOT NULL`,
      [contact?.id, ana, VISIT, MERIDA, slot.start, slot.end, PRIVACY_NOTICE_VERSION],
    );
    expect(placed.rows).toHaveLength(1);
    await during();
  } finally {
    await other.query('ROLLBACK');
    await other.end();
  }
}

/** A visitor's booking of `start`, answered within 20 s. */
const bookOnce = (start: string, name: string, phone: string) =>
  book(visitor(start, { name, phone }), { 'Idempotency-Key': randomUUID() }, AbortSignal.timeout(20_000));

describe('booking', () => {
  it('answers at once when another booking of the same member and start is still being made: taken, never a wait', async () => {
    // A start far from the plan's, and another booking of Ana's there, begun and not committed.
    const slot = (await slotsOf()).at(-3) as FreeSlot;
    await whilePlacing(slot, '+529991110001', 'Reserva en curso', async () => {
      // Before decision 0069 this visitor waited for that transaction's end (and, fifty at once, for the pool).
      const answer = await bookOnce(slot.start, 'Otra Visitante', '999 111 0002');
      expect(answer.status).toBe(409);
      expect(await answer.json()).toEqual({ error: BOOKING_MESSAGES.taken, code: 'slot_taken' });
    });
    expect(await countRows('appointments', 'starts_at = $1', [slot.start])).toBe(0);
  });

  it('books another start of a member while a booking of theirs is still being made: no wait for its commit', async () => {
    // Two starts of Ana's far apart, late in the window (the plan's are early): one held by a booking begun and
    // not committed, the other asked for by a visitor.
    const late = (await slotsOf()).reverse();
    const held = late[4] as FreeSlot;
    const asked = late.find((slot) => Date.parse(slot.end) + 3 * 3_600_000 <= Date.parse(held.start)) as FreeSlot;
    let booked: string | undefined;
    await whilePlacing(held, '+529991110003', 'Otra reserva en curso', async () => {
      // Before decision 0081 the member's calendar version was locked by that insert until its transaction ended,
      // and this visitor waited for it.
      const answer = await bookOnce(asked.start, 'Visitante Sin Espera', '999 111 0004');
      expect(answer.status).toBe(201);
      booked = ((await answer.json()) as { id: string }).id;
    });
    await sql(`DELETE FROM contacts WHERE id IN (SELECT contact_id FROM appointments WHERE id = $1)`, [booked]);
    // What the rolled-back booking held is free again, and the one that was made is gone with its contact.
    const free = (await slotsOf()).map((slot) => slot.start);
    expect(free).toContain(held.start);
    expect(free).toContain(asked.start);
  });

  it('gives one appointment and 49 clear Spanish 409s to 50 visitors after one slot with one member', async () => {
    const slot = plan[0] as FreeSlot;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        book(visitor(slot.start, { name: `Visitante ${index}`, phone: `99912${String(index).padStart(5, '0')}` }), {
          'Idempotency-Key': randomUUID(),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(49).fill(409)]);
    const refusals = await Promise.all(responses.filter((response) => response.status === 409).map((r) => r.json()));
    for (const refusal of refusals) expect(refusal).toEqual({ error: BOOKING_MESSAGES.taken, code: 'slot_taken' });
    expect(BOOKING_MESSAGES.taken).toBe('Ese horario ya no está disponible. Elige otro.');
    expect(await countRows('appointments', 'starts_at = $1', [slot.start])).toBe(1);
    // The 49 left no contact behind: a booking that did not happen is undone whole.
    expect(await countRows('contacts', "name LIKE 'Visitante %'")).toBe(1);
    expect((await slotsOf()).map((free) => free.start)).not.toContain(slot.start);
  });

  it('gives the next free member when the first is taken meanwhile: two members, two appointments, 48 409s', async () => {
    const members = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash, name)
       VALUES ('beto@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Beto'), ('carla@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Carla')
       RETURNING id`,
    );
    const ids = members.map((member) => member.id);
    await sql(`INSERT INTO user_roles (user_id, role) SELECT unnest($1::uuid[]), 'asesor'`, [ids]);
    await sql(`INSERT INTO member_appointment_kinds (member_id, kind) SELECT unnest($1::uuid[]), 'sesion-socios'`, [
      ids,
    ]);
    await sql(
      `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
       SELECT member, day, '00:00', '23:59', 'America/Merida' FROM unnest($1::uuid[]) AS member, generate_series(1, 7) AS day`,
      [ids],
    );
    const [slot] = await slotsOf('sesion-socios', 'videollamada');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        book(
          visitor(slot?.start ?? '', {
            kind: 'sesion-socios',
            place: 'videollamada',
            name: `Socio ${index}`,
            phone: `99913${String(index).padStart(5, '0')}`,
          }),
        ),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, ...Array(48).fill(409)]);
    const booked = await sql<{ member_id: string; status: string; price_mxn: number }>(
      `SELECT member_id, status, price_mxn FROM appointments WHERE starts_at = $1 AND kind = 'sesion-socios' ORDER BY member_id`,
      [slot?.start],
    );
    expect(booked.map((row) => row.member_id)).toEqual([...ids].sort());
    expect(booked.every((row) => row.status === 'por_pagar' && row.price_mxn === 899)).toBe(true);
    // A partner's session is for socios: it does not make the person a buyer.
    const partners = await sql<{ is_buyer: boolean }>(
      `SELECT c.is_buyer FROM appointments a JOIN contacts c ON c.id = a.contact_id WHERE a.starts_at = $1 AND a.kind = 'sesion-socios'`,
      [slot?.start],
    );
    expect(partners.map((row) => row.is_buyer)).toEqual([false, false]);

    // One person sending the same booking twice at once under two keys (two taps): one appointment, not one per
    // member free, and the second told in Spanish that the time is theirs already.
    const [, next] = await slotsOf('sesion-socios', 'videollamada');
    const twice = await Promise.all(
      [0, 1].map(() =>
        book(visitor(next?.start ?? '', { kind: 'sesion-socios', place: 'videollamada', phone: '999 131 9999' }), {
          'Idempotency-Key': randomUUID(),
        }),
      ),
    );
    expect(twice.map((response) => response.status).sort()).toEqual([201, 409]);
    const refused = twice.find((response) => response.status === 409);
    expect(await refused?.json()).toEqual({ error: BOOKING_MESSAGES.alreadyHeld, code: 'already_held' });
    expect(await countRows('appointments', 'starts_at = $1', [next?.start])).toBe(1);
  });

  it('stores a booking with its contact, deduplicated by phone, and a line on the contact’s history', async () => {
    const [first, second] = [plan[1] as FreeSlot, plan[2] as FreeSlot];
    const response = await book(visitor(first.start), { 'Idempotency-Key': randomUUID() });
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toEqual({
      id: expect.any(String),
      status: 'confirmada',
      kind: VISIT,
      place: MERIDA,
      start: first.start,
      end: first.end,
      holdUntil: null,
      priceMxn: null,
      payUrl: null,
    });
    const again = await book(visitor(second.start, { name: 'María Pech', phone: '+52 999 123 4567' }));
    expect(again.status).toBe(201);

    const contacts = await sql<{ id: string; name: string }>(
      `SELECT id, name FROM contacts WHERE phone = '+529991234567'`,
    );
    expect(contacts).toHaveLength(1);
    const stored = await sql(
      `SELECT contact_id, member_id, status, source, lower(blocked) = starts_at - interval '15 minutes' AS buffered
       FROM appointments WHERE id = $1`,
      [answer.id],
    );
    expect(stored[0]).toEqual({
      contact_id: contacts[0]?.id,
      member_id: ana,
      status: 'confirmada',
      source: 'sitio',
      buffered: true,
    });
    const events = await sql<{ to_value: string; detail: string }>(
      `SELECT to_value, detail FROM contact_events WHERE contact_id = $1 AND kind = 'appointment' ORDER BY id`,
      [contacts[0]?.id],
    );
    expect(events).toHaveLength(2);
    expect(events[0]?.to_value).toBe('confirmada');
    expect(events[0]?.detail).toMatch(
      /^Visita a la casa muestra · Casa muestra Mérida · \S+ \d+ de \S+ de \d{4}, \d{2}:\d{2}$/,
    );
  });

  it('gives one person at most three appointments ahead from the site: the fourth is a Spanish 409, and sends nothing', async () => {
    const phone = '999 765 1200';
    for (const slot of plan.slice(6, 9)) {
      expect((await book(visitor(slot.start, { phone }), { 'Idempotency-Key': randomUUID() })).status).toBe(201);
    }
    const fourth = await book(visitor((plan[9] as FreeSlot).start, { phone }), { 'Idempotency-Key': randomUUID() });
    expect(fourth.status).toBe(409);
    expect(await fourth.json()).toEqual({ error: BOOKING_MESSAGES.tooMany, code: 'too_many_appointments' });
    const [person] = await sql<{ appointments: number }>(
      `SELECT count(*)::int AS appointments FROM appointments a JOIN contacts c ON c.id = a.contact_id
       WHERE c.phone = '+529997651200'`,
    );
    expect(person?.appointments).toBe(3);
    // Its time is still free: the refusal held nothing.
    expect((await slotsOf()).map((slot) => slot.start)).toContain((plan[9] as FreeSlot).start);
  });

  it('books a paid kind as por pagar, held for its minutes', async () => {
    const [slot] = await slotsOf('asesoria-personalizada', 'videollamada');
    const response = await book(
      visitor(slot?.start ?? '', { kind: 'asesoria-personalizada', place: 'videollamada', phone: '999 765 4321' }),
    );
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toMatchObject({ status: 'por_pagar', priceMxn: 499 });
    const held = Date.parse(answer.holdUntil) - Date.now();
    expect(held).toBeGreaterThan(110 * 60_000);
    expect(held).toBeLessThanOrEqual(120 * 60_000);
    // Held: the slot is gone from the list (each list after a change reads the calendar again, decision 0064)…
    const starts = async () => (await slotsOf('asesoria-personalizada', 'videollamada')).map((free) => free.start);
    expect(await starts()).not.toContain(slot?.start);
    // …and back once the hold has expired unpaid.
    await sql(`UPDATE appointments SET hold_until = now() - interval '1 minute' WHERE id = $1`, [answer.id]);
    expect(await starts()).toContain(slot?.start);
    const [buyer] = await sql<{ is_buyer: boolean }>(
      `SELECT c.is_buyer FROM appointments a JOIN contacts c ON c.id = a.contact_id WHERE a.id = $1`,
      [answer.id],
    );
    expect(buyer?.is_buyer).toBe(true);
  });

  it('replays a retried booking with the same answer, and refuses the key for another one', async () => {
    const key = randomUUID();
    const body = visitor((plan[3] as FreeSlot).start, { phone: '999 222 3344' });
    const first = await book(body, { 'Idempotency-Key': key });
    const replay = await book(body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(await replay.json()).toEqual(await first.json());
    expect(await countRows('appointments', 'idempotency_key = $1', [key])).toBe(1);
    const other = await book({ ...body, start: (plan[4] as FreeSlot).start }, { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect((await other.json()).error).toBe(BOOKING_MESSAGES.keyReused);
    const badKey = await book(body, { 'Idempotency-Key': 'corta' });
    expect(badKey.status).toBe(400);
  });

  it('cannot hold one member twice by construction: the database itself refuses the overlap (23P01)', async () => {
    const [row] = await sql<{ contact_id: string; kind: string; place: string; starts_at: Date; ends_at: Date }>(
      `SELECT contact_id, kind, place, starts_at, ends_at FROM appointments WHERE starts_at = $1`,
      [(plan[0] as FreeSlot).start],
    );
    const insert = (status: string, shift: string) =>
      sql(
        `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source, hold_until)
         VALUES ($1, $2, $3, $4, $5::timestamptz + $7::interval, $6::timestamptz + $7::interval,
                 tstzrange($5::timestamptz + $7::interval, $6::timestamptz + $7::interval), $8, 'panel', now())`,
        [row?.contact_id, row?.kind, row?.place, ana, row?.starts_at, row?.ends_at, shift, status],
      );
    // Inside the other's buffer after it: taken.
    await expect(insert('confirmada', '70 minutes')).rejects.toMatchObject({ code: '23P01' });
    await expect(insert('por_pagar', '0 minutes')).rejects.toMatchObject({ code: '23P01' });
    // A cancelled appointment holds nothing.
    await expect(insert('cancelada', '0 minutes')).resolves.toEqual([]);
    await sql(`DELETE FROM appointments WHERE status = 'cancelada' AND source = 'panel'`);
  });

  it('raises the member’s calendar version when what a calendar shows changes, not for the calendar file’s sequence', async () => {
    const version = async () =>
      Number(
        (await sql<{ version: string }>(`SELECT version FROM member_calendar_versions WHERE member_id = $1`, [ana]))[0]
          ?.version,
      );
    const slot = (await slotsOf()).at(-8) as FreeSlot;
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529991110005', 'Versión del calendario', true) RETURNING id`,
    );
    const before = await version();
    const [row] = await sql<{ id: string }>(
      `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
       VALUES ($1, $2, $3, $4, $5, $6, tstzrange($5, $6), 'confirmada', 'panel') RETURNING id`,
      [contact?.id, VISIT, MERIDA, ana, slot.start, slot.end],
    );
    expect(await version()).toBe(before + 1);
    // Sent again with a higher sequence (a calendar file), the appointment holds the same time: Ana's calendar
    // kept in memory stays good.
    await sql(`UPDATE appointments SET calendar_sequence = calendar_sequence + 1, updated_at = now() WHERE id = $1`, [
      row?.id,
    ]);
    expect(await version()).toBe(before + 1);
    await sql(`UPDATE appointments SET status = 'cancelada' WHERE id = $1`, [row?.id]);
    expect(await version()).toBe(before + 2);
    expect((await slotsOf()).map((free) => free.start)).toContain(slot.start);
    await sql(`DELETE FROM contacts WHERE id = $1`, [contact?.id]);
    expect(await version()).toBe(before + 3);
  });

  it('refuses a write from another origin, or with no origin', async () => {
    const body = JSON.stringify(visitor((plan[5] as FreeSlot).start));
    for (const headers of [{ Origin: 'https://otro-sitio.example' }, {}] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/api/appointments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
      expect(response.status).toBe(403);
      expect((await response.json()).error).toBe('Solicitud rechazada: origen no permitido.');
    }
    expect(await countRows('appointments', 'starts_at = $1', [(plan[5] as FreeSlot).start])).toBe(0);
  });

  it('answers bad input with a Spanish 4xx and its fields, never a 500', async () => {
    const slot = plan[5] as FreeSlot;
    const cases: [Record<string, unknown> | string, number, Record<string, string>?][] = [
      [{ ...visitor(slot.start), name: '' }, 400, { name: 'Escribe tu nombre.' }],
      [
        { ...visitor(slot.start), phone: '123' },
        400,
        { phone: 'Escribe un número de 10 dígitos, por ejemplo 999 123 4567.' },
      ],
      [{ ...visitor(slot.start), start: 'mañana' }, 400, { start: 'Elige un horario de la lista.' }],
      [{ ...visitor(slot.start), kind: 'No Existe' }, 400, { kind: 'Elige el tipo de cita.' }],
      [{ ...visitor(slot.start), kind: 'clase-de-yoga' }, 404],
      [{ ...visitor(slot.start), place: 'oficina-cdmx' }, 404],
      // A start that is no slot (off the half hours, or before the notice) is as taken as a taken one.
      [visitor(new Date(Date.parse(slot.start) + 7 * 60_000).toISOString()), 409],
      [visitor(new Date(Date.now() + 3_600_000).toISOString()), 409],
      ['{"name": ', 400],
      ['[]', 400],
    ];
    for (const [body, status, fields] of cases) {
      const response = await fetch(`${server.url}/api/appointments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(status);
      const answer = await response.json();
      expect(answer.error).toMatch(/[áéíóúñ¿¡]|Revisa|Elige|JSON|datos/);
      if (fields) expect(answer.fields).toMatchObject(fields);
    }
    expect(server.output()).not.toMatch(/"level":"error"/);
  });

  it('answers 429 in Spanish past the per-IP limit, with when to try again', async () => {
    // This machine's counter of the booking's bucket, filled for this window and the next.
    await sql(`UPDATE rate_limit_counters SET hits = 100000 WHERE bucket = 'appointments:book'`);
    await sql(
      `INSERT INTO rate_limit_counters (bucket, subject, window_start, hits)
       SELECT bucket, subject, window_start + interval '10 minutes', 100000 FROM rate_limit_counters
       WHERE bucket = 'appointments:book' ON CONFLICT DO NOTHING`,
    );
    const response = await book(visitor((plan[5] as FreeSlot).start, { phone: '999 333 4455' }));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await response.json()).error).toBe(
      'Recibimos demasiadas solicitudes desde tu conexión. Espera unos minutos e inténtalo de nuevo.',
    );
    expect(await countRows('appointments', 'starts_at = $1', [(plan[5] as FreeSlot).start])).toBe(0);
  });
});
