import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDetail, Metrics } from '../../src/lib/admin/contacts.ts';
import { meridaDaysAhead } from '../../src/lib/admin/merida-time.ts';
import type { TodayAgenda } from '../../src/lib/admin/today.ts';
import { ATTENDANCE_MESSAGES, type AttendanceSaved } from '../../src/lib/appointments/attendance.ts';
import type { FreeSlot } from '../../src/lib/appointments/booking.ts';
import { inviteAdviser, memberRequest, originOf, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #40, part 5 (decision 0062): "Asistió" / "No asistió" over HTTP, the
 * pipeline's moves (visita agendada, visitó), the appointments on "Hoy" and
 * the visits of "Métricas". Ana gives the visit every day from 00:00 to 23:59
 * Mérida time (a future booking goes through POST /api/appointments); past
 * appointments are written in SQL, as the booking refuses the past.
 */

let server: RunningServer;
let adminCookie: string;
let adminId: string;
let ana: { id: string; cookie: string };
let beto: { id: string; cookie: string };
const call = memberRequest(() => server.url);

const mark = (cookie: string | null, id: string, attended: unknown) =>
  call(cookie, `/api/admin/appointments/${id}/attendance`, { method: 'POST', body: JSON.stringify({ attended }) });

let phones = 0;
async function contact(name: string, state = 'nuevo', to: string | null = null): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, assigned_to) VALUES ($1, $2, true, $3, $4) RETURNING id`,
    [`+5298${String(++phones).padStart(8, '0')}`, name, state, to],
  );
  return row?.id as string;
}

/** An appointment `hoursAgo` hours ago (negative: ahead), written as a booking would leave it. */
async function appointment(
  contactId: string,
  member: string | null,
  hoursAgo: number,
  fields: { status?: string; source?: string } = {},
): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source, hold_until, price_mxn)
     SELECT $1, 'visita-casa-muestra', 'casa-muestra-merida', $2, s, s + interval '1 hour',
            tstzrange(s - interval '15 minutes', s + interval '75 minutes'), $4, $5,
            CASE WHEN $4 = 'por_pagar' THEN now() + interval '1 hour' END, CASE WHEN $4 = 'por_pagar' THEN 499 END
     FROM (SELECT now() - make_interval(secs => $3::float8 * 3600) AS s) t
     RETURNING id`,
    [contactId, member, hoursAgo, fields.status ?? 'confirmada', fields.source ?? 'panel'],
  );
  return row?.id as string;
}

const stateOf = async (id: string) =>
  (await sql<{ state: string; version: number }>('SELECT state, version FROM contacts WHERE id = $1', [id]))[0];
const linesOf = (id: string, kind: string) =>
  sql<{ from_value: string | null; to_value: string | null; actor_name: string | null }>(
    'SELECT from_value, to_value, actor_name FROM contact_events WHERE contact_id = $1 AND kind = $2 ORDER BY id',
    [id, kind],
  );

beforeAll(async () => {
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
  adminCookie = await setupAdmin(server.url);
  adminId = (await sql<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@ceiba.mx'`))[0]?.id as string;
  ana = await inviteAdviser(server.url, adminCookie, 'ana@ceiba.mx', 'Ana Canul');
  beto = await inviteAdviser(server.url, adminCookie, 'beto@ceiba.mx', 'Beto May');
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, 'visita-casa-muestra')`, [ana.id]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [ana.id],
  );
});

afterAll(async () => {
  await server?.stop();
});

describe('a booking moves the pipeline', () => {
  it('books from the site: an earlier open contact becomes «Visita agendada», a line on its history; marking it before its start is refused', async () => {
    const existing = await contact('Lucía Chan', 'contactado', ana.id);
    const phone = (await sql<{ phone: string }>('SELECT phone FROM contacts WHERE id = $1', [existing]))[0]?.phone;
    const from = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now());
    const to = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + 20 * 86_400_000);
    const slots = (await (
      await fetch(
        `${server.url}/api/appointments/slots?kind=visita-casa-muestra&place=casa-muestra-merida&from=${from}&to=${to}`,
      )
    ).json()) as { slots: FreeSlot[] };
    const slot = slots.slots[0] as FreeSlot;
    const booked = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
      body: JSON.stringify({
        name: 'Lucía Chan',
        phone,
        kind: 'visita-casa-muestra',
        place: 'casa-muestra-merida',
        start: slot.start,
      }),
    });
    expect(booked.status).toBe(201);
    const { id } = (await booked.json()) as { id: string };
    expect((await stateOf(existing))?.state).toBe('visita_agendada');
    // A buyer's booking: the line has no member.
    expect(await linesOf(existing, 'state')).toEqual([
      { from_value: 'contactado', to_value: 'visita_agendada', actor_name: null },
    ]);

    const early = await mark(ana.cookie, id, true);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.notYet });
    expect((await sql('SELECT status FROM appointments WHERE id = $1', [id]))[0]).toEqual({ status: 'confirmada' });
  });

  it('leaves a closed contact and one already past the visit where they are', async () => {
    const won = await contact('Cliente', 'cerrado_ganado', ana.id);
    const visited = await contact('Ya visitó', 'visito', ana.id);
    for (const id of [won, visited]) {
      const past = await appointment(id, ana.id, 3);
      expect((await mark(ana.cookie, past, true)).status).toBe(200);
    }
    expect((await stateOf(won))?.state).toBe('cerrado_ganado');
    expect((await stateOf(visited))?.state).toBe('visito');
    expect(await linesOf(won, 'state')).toEqual([]);
  });
});

describe('marking attendance', () => {
  it('is the appointment’s member’s or an administrator’s: 401 without a session, 403 for another adviser', async () => {
    const person = await contact('Rosa Pech', 'visita_agendada', ana.id);
    const id = await appointment(person, ana.id, 2);
    expect((await mark(null, id, true)).status).toBe(401);
    const other = await mark(beto.cookie, id, true);
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.forbidden });
    // Another origin cannot write.
    const crossSite = await fetch(`${server.url}/api/admin/appointments/${id}/attendance`, {
      method: 'POST',
      headers: { Cookie: ana.cookie, Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ attended: true }),
    });
    expect(crossSite.status).toBe(403);
    const invalid = await mark(ana.cookie, id, 'sí');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.invalid });
    expect((await mark(ana.cookie, '00000000-0000-4000-8000-000000000000', true)).status).toBe(404);
    expect((await sql('SELECT status FROM appointments WHERE id = $1', [id]))[0]).toEqual({ status: 'confirmada' });
  });

  it('an administrator marks «Asistió»: the contact becomes «Visitó», with its history lines and the activity log', async () => {
    const person = await contact('Pedro Uc', 'visita_agendada', ana.id);
    const id = await appointment(person, ana.id, 7);
    const before = await stateOf(person);
    const answer = await mark(adminCookie, id, true);
    expect(answer.status).toBe(200);
    const saved = (await answer.json()) as AttendanceSaved;
    expect(saved).toMatchObject({
      id,
      status: 'asistio',
      changed: true,
      proposedNextContactAt: null,
      contact: { id: person, name: 'Pedro Uc', state: 'visito' },
    });
    expect(saved.contact.version).toBe((before?.version ?? 0) + 1);
    expect(await linesOf(person, 'appointment')).toEqual([
      { from_value: 'confirmada', to_value: 'asistio', actor_name: 'admin@ceiba.mx' },
    ]);
    expect(await linesOf(person, 'state')).toEqual([
      { from_value: 'visita_agendada', to_value: 'visito', actor_name: 'admin@ceiba.mx' },
    ]);
    const logged = await sql<{ actor_id: string; summary: string }>(
      `SELECT actor_id, summary FROM activity_log WHERE kind = 'appointment_attendance' AND details ->> 'appointment' = $1`,
      [id],
    );
    expect(logged).toEqual([{ actor_id: adminId, summary: 'Marcó la cita de Pedro Uc como «Asistió»' }]);

    // The contact's page reads the lines (its history).
    const detail = (await (await call(adminCookie, `/api/admin/contacts/${person}`)).json()) as ContactDetail;
    expect(detail.state).toBe('visito');
  });

  it('is idempotent: the same mark again answers the same and writes nothing; the other mark is refused', async () => {
    const person = await contact('Marta Ek', 'visita_agendada', ana.id);
    const id = await appointment(person, ana.id, 5);
    expect((await mark(ana.cookie, id, true)).status).toBe(200);
    const again = await mark(ana.cookie, id, true);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'asistio', changed: false, contact: { state: 'visito' } });
    expect(await linesOf(person, 'appointment')).toHaveLength(1);
    expect(await linesOf(person, 'state')).toHaveLength(1);
    const other = await mark(ana.cookie, id, false);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.markedOther.asistio });
    expect((await sql('SELECT status FROM appointments WHERE id = $1', [id]))[0]).toEqual({ status: 'asistio' });
  });

  it('refuses a cancelled or an unpaid appointment with a Spanish 409', async () => {
    const person = await contact('Jorge Tun', 'visita_agendada', ana.id);
    const cancelled = await appointment(person, ana.id, 30, { status: 'cancelada' });
    const unpaid = await appointment(person, ana.id, 10, { status: 'por_pagar' });
    const first = await mark(ana.cookie, cancelled, true);
    expect(first.status).toBe(409);
    expect(await first.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.cancelled });
    const second = await mark(ana.cookie, unpaid, false);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: ATTENDANCE_MESSAGES.unpaid });
  });

  it('a no-show leaves the state and proposes tomorrow 10:00 as the next contact, which the adviser takes in one request', async () => {
    const person = await contact('Sofía Dzul', 'visita_agendada', ana.id);
    const id = await appointment(person, ana.id, 26);
    const answer = await mark(ana.cookie, id, false);
    expect(answer.status).toBe(200);
    const saved = (await answer.json()) as AttendanceSaved;
    expect(saved).toMatchObject({ status: 'no_asistio', contact: { state: 'visita_agendada', nextContactAt: null } });
    // Tomorrow at 10:00 on Mérida's clock (the answer is computed at the server's now: the same day here).
    expect(saved.proposedNextContactAt).toBe(meridaDaysAhead(1, '10:00'));
    expect(await linesOf(person, 'state')).toEqual([]);
    expect(await linesOf(person, 'appointment')).toEqual([
      { from_value: 'confirmada', to_value: 'no_asistio', actor_name: 'Ana Canul' },
    ]);

    const taken = await call(ana.cookie, `/api/admin/contacts/${person}`, {
      method: 'PATCH',
      body: JSON.stringify({ nextContactAt: saved.proposedNextContactAt, version: saved.contact.version }),
    });
    expect(taken.status).toBe(200);
    const stored = await sql<{ next: Date }>('SELECT next_contact_at AS next FROM contacts WHERE id = $1', [person]);
    expect(stored[0]?.next.toISOString()).toBe(saved.proposedNextContactAt);
  });

  it('proposes no follow-up for a closed contact’s no-show: a next contact it would not keep', async () => {
    const client = await contact('Rubén Ek', 'cerrado_ganado', ana.id);
    const answer = await mark(ana.cookie, await appointment(client, ana.id, 27), false);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'no_asistio', proposedNextContactAt: null });
  });
});

describe('«Hoy» shows the appointments', () => {
  it('the day’s and the unmarked past ones: an adviser’s own, the team’s for an administrator', async () => {
    // The earlier tests' appointments step aside (today's may fall on any hour).
    await sql(`UPDATE appointments SET status = 'cancelada' WHERE status IN ('confirmada', 'por_pagar')`);
    const person = await contact('Elena Poot', 'visita_agendada', ana.id);
    const betoPerson = await contact('Iván Caamal', 'visita_agendada', beto.id);
    // Noon today in Mérida (past or ahead, it is today's), and three days ago, unmarked.
    const [noon] = await sql<{ hours: number }>(
      `SELECT extract(epoch FROM now() - ((date_trunc('day', now() AT TIME ZONE 'America/Merida') + interval '12 hours')
         AT TIME ZONE 'America/Merida')) / 3600 AS hours`,
    );
    const todays = await appointment(person, ana.id, Number(noon?.hours), { source: 'sitio' });
    const old = await appointment(person, ana.id, 72);
    const betos = await appointment(betoPerson, beto.id, 80);

    const agenda = (await (await call(ana.cookie, '/api/admin/today')).json()) as TodayAgenda;
    expect(agenda.appointments.today.map((item) => item.id)).toContain(todays);
    const shown = agenda.appointments.today.find((item) => item.id === todays);
    expect(shown).toMatchObject({
      kindName: 'Visita a la casa muestra',
      placeName: 'Casa muestra Mérida',
      timeZone: 'America/Merida',
      status: 'confirmada',
      contact: { id: person, name: 'Elena Poot' },
      member: { id: ana.id, name: 'Ana Canul' },
    });
    const unmarked = agenda.appointments.unmarked.map((item) => item.id);
    expect(unmarked).toContain(old);
    expect(unmarked).not.toContain(betos);
    expect(agenda.appointments.unmarkedTotal).toBe(unmarked.length);

    const team = (await (await call(adminCookie, '/api/admin/today')).json()) as TodayAgenda;
    expect(team.appointments.unmarked.map((item) => item.id)).toEqual(expect.arrayContaining([old, betos]));
    const own = (await (await call(adminCookie, '/api/admin/today?scope=mine')).json()) as TodayAgenda;
    expect(own.appointments.unmarked).toEqual([]);

    // An unpaid hold of today whose time to pay ran out holds nothing: not on the day's list; one still held is.
    const lapsed = await appointment(betoPerson, beto.id, Number(noon?.hours) - 2, { status: 'por_pagar' });
    const held = await appointment(betoPerson, beto.id, Number(noon?.hours) - 4, { status: 'por_pagar' });
    await sql(`UPDATE appointments SET hold_until = now() - interval '1 minute' WHERE id = $1`, [lapsed]);
    const day = (await (await call(adminCookie, '/api/admin/today')).json()) as TodayAgenda;
    expect(day.appointments.today.map((item) => item.id)).toContain(held);
    expect(day.appointments.today.map((item) => item.id)).not.toContain(lapsed);

    // Marked, it leaves the unmarked list.
    expect((await mark(ana.cookie, old, false)).status).toBe(200);
    const after = (await (await call(ana.cookie, '/api/admin/today')).json()) as TodayAgenda;
    expect(after.appointments.unmarked.map((item) => item.id)).not.toContain(old);
  });
});

describe('«Métricas» counts the visits', () => {
  it('booked, held, no-shows and the no-show rate, by adviser and by source', async () => {
    await sql('DELETE FROM appointments');
    const person = await contact('Conteo', 'visita_agendada', ana.id);
    const held = [
      await appointment(person, ana.id, 4, { source: 'sitio' }),
      await appointment(person, ana.id, 8, { source: 'sitio' }),
      await appointment(person, beto.id, 4, { source: 'whatsapp' }),
    ];
    const missed = [
      await appointment(person, ana.id, 12, { source: 'panel' }),
      await appointment(person, beto.id, 12, { source: 'whatsapp' }),
    ];
    await appointment(person, ana.id, 20, { source: 'sitio' }); // past, unmarked
    await appointment(person, beto.id, -48, { source: 'panel' }); // ahead
    await appointment(person, beto.id, -72, { source: 'sitio', status: 'cancelada' }); // booked, then cancelled
    for (const id of held) expect((await mark(adminCookie, id, true)).status).toBe(200);
    for (const id of missed) expect((await mark(adminCookie, id, false)).status).toBe(200);

    const { visits } = (await (await call(beto.cookie, '/api/admin/metrics')).json()) as Metrics;
    expect(visits.totals).toEqual({ booked: 8, held: 3, noShows: 2, pending: 1, noShowRate: 0.4 });
    expect(visits.byAdviser).toEqual([
      { memberId: ana.id, name: 'Ana Canul', booked: 4, held: 2, noShows: 1, pending: 1, noShowRate: 0.333 },
      { memberId: beto.id, name: 'Beto May', booked: 4, held: 1, noShows: 1, pending: 0, noShowRate: 0.5 },
    ]);
    expect(visits.bySource).toEqual([
      { source: 'sitio', booked: 4, held: 2, noShows: 0, pending: 1, noShowRate: 0 },
      { source: 'panel', booked: 2, held: 0, noShows: 1, pending: 0, noShowRate: 1 },
      { source: 'whatsapp', booked: 2, held: 1, noShows: 1, pending: 0, noShowRate: 0.5 },
      // Booked by the voice agent during a call (issue #42): none here.
      { source: 'voz', booked: 0, held: 0, noShows: 0, pending: 0, noShowRate: null },
    ]);
  });
});
