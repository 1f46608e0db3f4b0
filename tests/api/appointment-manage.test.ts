import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FreeSlot } from '../../src/lib/appointments/booking.ts';
import { MANAGE_MESSAGES, type ManagedAppointment } from '../../src/lib/appointments/manage.ts';
import { manageToken } from '../../src/server/appointments/link.ts';
import { appointmentLink } from '../../src/server/appointments/manage.ts';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { cookieOf, inviteAdviser, login, memberRequest, originOf, setupAdmin } from '../support/admin.ts';
import { seedMemberGiving } from '../support/advisers.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #40, the buyer's link (decision 0059): /api/appointments/manage reads,
 * cancels and moves the appointment a signed token names, over HTTP on one
 * server for the file. The test signs its tokens with the server's own key
 * (JWT_SECRET, given to both), as the confirmation will. Ana gives the visit
 * every day from 00:00 to 23:59 Mérida time, so the place's hours decide.
 */

const SECRET = 'appointment-manage-test-secret-of-at-least-32-bytes';
// Read on the first token: this process signs as the server does.
process.env.JWT_SECRET = SECRET;

let server: RunningServer;
let ana: string;
const VISIT = 'visita-casa-muestra';
const MERIDA = 'casa-muestra-merida';
const DAY = 86_400_000;

function meridaDates(days: number): { from: string; to: string } {
  const date = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' }).format(Date.now() + offset * DAY);
  return { from: date(0), to: date(days) };
}

async function slotStarts(): Promise<string[]> {
  const { from, to } = meridaDates(25);
  const response = await fetch(
    `${server.url}/api/appointments/slots?kind=${VISIT}&place=${MERIDA}&from=${from}&to=${to}`,
  );
  return ((await response.json()) as { slots: FreeSlot[] }).slots.map((slot) => slot.start);
}

/** Slots each at least six hours from the one before: no buffer of one touches another. */
function spaced(starts: readonly string[], count: number): string[] {
  const picked: string[] = [];
  for (const start of starts) {
    const last = picked.at(-1);
    if (!last || Date.parse(start) >= Date.parse(last) + 6 * 3_600_000) picked.push(start);
    if (picked.length === count) return picked;
  }
  throw new Error(`only ${picked.length} spaced slots of ${count}`);
}

let phones = 0;
/** Books the visit at `start` for a person of its own; its id and a token of its link. */
async function booked(start: string): Promise<{ id: string; token: string }> {
  phones += 1;
  const response = await fetch(`${server.url}/api/appointments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url), 'Idempotency-Key': randomUUID() },
    body: JSON.stringify({
      name: 'Lucía Chan',
      phone: `99955${String(phones).padStart(5, '0')}`,
      kind: VISIT,
      place: MERIDA,
      start,
    }),
  });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return { id, token: manageToken(id, Date.parse(start) + DAY) };
}

const read = (token: string) => fetch(`${server.url}/api/appointments/manage?t=${encodeURIComponent(token)}`);

const act = (body: Record<string, unknown>) =>
  fetch(`${server.url}/api/appointments/manage`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: originOf(server.url) },
    body: JSON.stringify(body),
  });

async function row(id: string) {
  const [found] = await sql<{ status: string; starts_at: Date; member_id: string; held_from: Date }>(
    `SELECT status, starts_at, member_id, lower(blocked) AS held_from FROM appointments WHERE id = $1`,
    [id],
  );
  return found;
}

let plan: string[];

beforeAll(async () => {
  server = await startServer({ PLATFORM_RATE_LIMIT: '0', LEAD_RATE_LIMIT: '1000', JWT_SECRET: SECRET });
  const [member] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ('ana.manage@ceiba.mx', '$2b$10$sinusoxxxxxxxxxxxxxxxx', 'Ana Canul') RETURNING id`,
  );
  ana = member?.id ?? '';
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [ana]);
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, $2)`, [ana, VISIT]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [ana],
  );
  plan = spaced(await slotStarts(), 17);
});

afterAll(async () => {
  await server?.stop();
});

describe('the link', () => {
  it('reads the appointment it names, on its place’s clock, with until when it may change', async () => {
    const start = plan[0] as string;
    const { id, token } = await booked(start);
    const response = await read(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = (await response.json()) as ManagedAppointment;
    expect(answer).toEqual({
      id,
      status: 'confirmada',
      kind: VISIT,
      kindName: 'Visita a la casa muestra',
      place: MERIDA,
      placeName: 'Casa muestra Mérida',
      timeZone: 'America/Merida',
      start,
      end: new Date(Date.parse(start) + 3_600_000).toISOString(),
      // The visit's cutoff: two hours before.
      changeUntil: new Date(Date.parse(start) - 2 * 3_600_000).toISOString(),
      canChange: true,
      // Nothing to pay: a visit is free, and no payment stands.
      payUrl: null,
      paid: null,
    });
    // The link the messages will send opens the same page with a token of its own that reads the same.
    const link = new URL(appointmentLink('https://ceiba.example/', { id, start }));
    expect(`${link.origin}${link.pathname}`).toBe('https://ceiba.example/cita');
    expect(((await (await read(link.searchParams.get('t') ?? '')).json()) as ManagedAppointment).id).toBe(id);
  });

  it('answers a token that is not ours 401 and an expired one 410, in Spanish', async () => {
    const { id, token } = await booked(plan[1] as string);
    const changed = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    for (const bad of [changed, 'corto', '', manageToken(randomUUID(), Date.now() + DAY)]) {
      const response = await read(bad);
      expect(response.status, bad).toBe(401);
      expect(await response.json()).toEqual({ error: MANAGE_MESSAGES.invalidLink, code: 'invalid_link' });
    }
    const { from, to } = meridaDates(5);
    const slots = await fetch(`${server.url}/api/appointments/manage/slots?t=${changed}&from=${from}&to=${to}`);
    expect(slots.status).toBe(401);
    const noDates = await fetch(`${server.url}/api/appointments/manage/slots?t=${token}&from=ayer`);
    expect(noDates.status).toBe(400);
    const expired = manageToken(id, Date.now() - 1000);
    const response = await read(expired);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: MANAGE_MESSAGES.expiredLink, code: 'expired_link' });
    // Nor can an expired or forged link change anything.
    expect((await act({ t: expired, action: 'cancelar' })).status).toBe(410);
    expect((await act({ t: changed, action: 'cancelar' })).status).toBe(401);
    expect((await row(id))?.status).toBe('confirmada');
  });
});

describe('a move', () => {
  it('moves the appointment in place, frees its old time, takes the new one and leaves a line on the history', async () => {
    const [from, to] = [plan[2] as string, plan[3] as string];
    const { id, token } = await booked(from);
    const response = await act({ t: token, action: 'reprogramar', start: to });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ManagedAppointment;
    expect(answer).toMatchObject({ id, status: 'confirmada', start: to, canChange: true });
    // A fresh token, good until a day after the new start.
    expect(answer.token).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(((await (await read(answer.token ?? '')).json()) as ManagedAppointment).start).toBe(to);
    // The same row: the link already sent still opens it.
    expect(((await (await read(token)).json()) as ManagedAppointment).start).toBe(to);
    const stored = await row(id);
    expect(stored?.starts_at.toISOString()).toBe(to);
    expect(stored?.held_from.toISOString()).toBe(new Date(Date.parse(to) - 15 * 60_000).toISOString());
    const free = await slotStarts();
    expect(free).toContain(from);
    expect(free).not.toContain(to);
    const [line] = await sql<{ detail: string; to_value: string }>(
      `SELECT e.detail, e.to_value FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'appointment' ORDER BY e.id DESC LIMIT 1`,
      [id],
    );
    expect(line?.to_value).toBe('confirmada');
    expect(line?.detail).toMatch(
      /^Visita a la casa muestra · Casa muestra Mérida: reprogramada por la persona desde su enlace, de .+ a .+$/,
    );
  });

  it('takes three moves from the buyer’s link; the fourth is refused in Spanish (409) and the appointment stays', async () => {
    const start = plan[10] as string;
    const later = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    const { id, token } = await booked(start);
    // Each move sends a template to the phone whoever booked typed: three, then an adviser moves it.
    for (const to of [later, start, later]) {
      expect((await act({ t: token, action: 'reprogramar', start: to })).status).toBe(200);
    }
    const refused = await act({ t: token, action: 'reprogramar', start });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: MANAGE_MESSAGES.tooManyMoves, code: 'too_many_moves' });
    expect((await row(id))?.starts_at.toISOString()).toBe(later);
    // Cancelling is still theirs.
    expect((await act({ t: token, action: 'cancelar' })).status).toBe(200);
  });

  it('may move half an hour later, over its own time (its own time counts as free)', async () => {
    const start = plan[4] as string;
    const { id, token } = await booked(start);
    const later = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    // Another visitor sees that time as taken: the appointment holds it…
    expect(await slotStarts()).not.toContain(later);
    // …and its own link lists it among the times it may move to.
    const { from, to } = meridaDates(25);
    const own = await fetch(`${server.url}/api/appointments/manage/slots?t=${token}&from=${from}&to=${to}`);
    expect(own.status).toBe(200);
    const listed = ((await own.json()) as { slots: FreeSlot[]; timeZone: string }).slots.map((slot) => slot.start);
    expect(listed).toContain(later);
    expect(listed).toContain(start);
    const response = await act({ t: token, action: 'reprogramar', start: later });
    expect(response.status).toBe(200);
    expect((await row(id))?.starts_at.toISOString()).toBe(later);
  });

  it('answers 409 in Spanish when the new time is taken, and leaves the appointment where it was', async () => {
    const [mine, theirs] = [plan[5] as string, plan[6] as string];
    const { id, token } = await booked(mine);
    await booked(theirs);
    const response = await act({ t: token, action: 'reprogramar', start: theirs });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: MANAGE_MESSAGES.taken, code: 'slot_taken' });
    expect((await row(id))?.starts_at.toISOString()).toBe(mine);
    // A start that is no slot at all (off the half hours) is as taken.
    const odd = await act({
      t: token,
      action: 'reprogramar',
      start: new Date(Date.parse(mine) + 7 * 60_000 + DAY).toISOString(),
    });
    expect(odd.status).toBe(409);
  });

  it('moves to another free member when its own is taken then', async () => {
    const [mine, theirs] = [plan[7] as string, plan[8] as string];
    const { id, token } = await booked(mine);
    await booked(theirs);
    const beto = await seedMemberGiving(sql, VISIT, 'Beto');
    try {
      const response = await act({ t: token, action: 'reprogramar', start: theirs });
      expect(response.status).toBe(200);
      expect(await row(id)).toMatchObject({ member_id: beto, status: 'confirmada' });
      expect(await countRows('appointments', "starts_at = $1 AND status = 'confirmada'", [theirs])).toBe(2);
    } finally {
      await sql(`UPDATE users SET deactivated_at = now() WHERE id = $1`, [beto]);
    }
  });

  it('answers bad input with a Spanish 400 and its field, never a 500', async () => {
    const { token } = await booked(plan[9] as string);
    const wrong = await act({ t: token, action: 'reprogramar', start: 'mañana' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: MANAGE_MESSAGES.invalid,
      fields: { start: 'Elige un horario de la lista.' },
    });
    expect((await act({ t: token, action: 'borrar' })).status).toBe(400);
    expect((await act({ t: 'no-es-un-enlace', action: 'cancelar' })).status).toBe(401);
    expect(server.output()).not.toMatch(/"level":"error"/);
  });
});

describe('a cancellation', () => {
  it('cancels, frees the time, leaves a line on the history, and the link then says it is cancelled (410)', async () => {
    const start = plan[9] as string;
    const [found] = await sql<{ id: string }>(`SELECT id FROM appointments WHERE starts_at = $1`, [start]);
    const id = found?.id ?? '';
    const token = manageToken(id, Date.parse(start) + DAY);
    expect(await slotStarts()).not.toContain(start);
    const response = await act({ t: token, action: 'cancelar' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, status: 'cancelada', canChange: false });
    expect((await row(id))?.status).toBe('cancelada');
    expect(await slotStarts()).toContain(start);
    const [line] = await sql<{ from_value: string; to_value: string; detail: string }>(
      `SELECT e.from_value, e.to_value, e.detail FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'appointment' ORDER BY e.id DESC LIMIT 1`,
      [id],
    );
    expect(line).toMatchObject({ from_value: 'confirmada', to_value: 'cancelada' });
    expect(line?.detail).toMatch(/cancelada por la persona desde su enlace$/);
    for (const again of [await read(token), await act({ t: token, action: 'cancelar' })]) {
      expect(again.status).toBe(410);
      expect(await again.json()).toEqual({ error: MANAGE_MESSAGES.cancelled, code: 'cancelled' });
    }
  });

  it('says a "por pagar" whose hold ended unpaid is no longer kept (410), and neither moves nor cancels it', async () => {
    const { id, token } = await booked(plan[11] as string);
    // As a paid kind's booking left unpaid past its hold: its time is no longer kept for it.
    await sql(`UPDATE appointments SET status = 'por_pagar', hold_until = now() - interval '1 minute' WHERE id = $1`, [
      id,
    ]);
    const later = plan[10] as string;
    for (const response of [
      await read(token),
      await act({ t: token, action: 'reprogramar', start: later }),
      await act({ t: token, action: 'cancelar' }),
    ]) {
      expect(response.status).toBe(410);
      expect(await response.json()).toEqual({ error: MANAGE_MESSAGES.holdExpired, code: 'hold_expired' });
    }
    expect(await row(id)).toMatchObject({ status: 'por_pagar', starts_at: new Date(plan[11] as string) });
  });

  it('is refused inside the kind’s cutoff (422), and so is a move; the appointment stays', async () => {
    // An hour from now: inside the visit's two hours (set in the database, as the panel may book it).
    const [contact] = await sql<{ id: string }>(`SELECT id FROM contacts LIMIT 1`);
    const [soon] = await sql<{ id: string; starts_at: Date }>(
      `INSERT INTO appointments (contact_id, kind, place, member_id, starts_at, ends_at, blocked, status, source)
       VALUES ($1, $2, $3, $4, date_trunc('minute', now()) + interval '1 hour', date_trunc('minute', now()) + interval '2 hours',
               tstzrange(date_trunc('minute', now()) + interval '1 hour', date_trunc('minute', now()) + interval '2 hours'), 'confirmada', 'panel')
       RETURNING id, starts_at`,
      [contact?.id, VISIT, MERIDA, ana],
    );
    const token = manageToken(soon?.id ?? '', (soon?.starts_at.getTime() ?? 0) + DAY);
    const shown = (await (await read(token)).json()) as ManagedAppointment;
    expect(shown).toMatchObject({ status: 'confirmada', canChange: false });
    const { from, to } = meridaDates(5);
    const where = await fetch(`${server.url}/api/appointments/manage/slots?t=${token}&from=${from}&to=${to}`);
    expect(where.status).toBe(422);
    for (const body of [
      { t: token, action: 'cancelar' },
      { t: token, action: 'reprogramar', start: plan[2] as string },
    ]) {
      const response = await act(body);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ error: MANAGE_MESSAGES.cutoff, code: 'cutoff' });
    }
    expect((await row(soon?.id ?? ''))?.status).toBe('confirmada');
  });

  it('refuses a change from another origin, or with no origin', async () => {
    const [found] = await sql<{ id: string; starts_at: Date }>(
      `SELECT id, starts_at FROM appointments WHERE status = 'confirmada' AND starts_at > now() + interval '1 day' LIMIT 1`,
    );
    const id = found?.id ?? '';
    const token = manageToken(id, (found?.starts_at.getTime() ?? 0) + DAY);
    for (const headers of [{ Origin: 'https://otro-sitio.example' }, {}] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/api/appointments/manage`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ t: token, action: 'cancelar' }),
      });
      expect(response.status).toBe(403);
    }
    expect((await row(id))?.status).toBe('confirmada');
  });
});

describe('the team’s move (the panel)', () => {
  const request = memberRequest(() => server.url);
  const move = (cookie: string | null, id: string, body: unknown) =>
    request(cookie, `/api/admin/appointments/${id}/move`, { method: 'POST', body: JSON.stringify(body) });
  let admin: string;
  let adviser: string;
  const sequenceOf = async (id: string) =>
    (await sql<{ n: number }>('SELECT calendar_sequence AS n FROM appointments WHERE id = $1', [id]))[0]?.n ?? -1;
  beforeAll(async () => {
    admin = await setupAdmin(server.url, 'admin.manage@ceiba.mx', 'contraseña-segura-manage');
    adviser = (await inviteAdviser(server.url, admin, 'beto.manage@ceiba.mx', 'Beto Pech')).cookie;
  });

  it('moves an appointment the buyer moved three times already: no limit, no cutoff, the buyer told, signed', async () => {
    const [start, to] = [plan[12] as string, plan[13] as string];
    const later = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    const { id, token } = await booked(start);
    for (const at of [later, start, later]) {
      expect((await act({ t: token, action: 'reprogramar', start: at })).status).toBe(200);
    }
    const sequenceBefore = await sequenceOf(id);
    const moved = await move(admin, id, { start: to });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ id, start: to, moved: true, memberId: ana });
    const [stored] = await sql<{ starts_at: Date; buyer_moves: number }>(
      'SELECT starts_at, buyer_moves FROM appointments WHERE id = $1',
      [id],
    );
    expect(stored?.starts_at.toISOString()).toBe(to);
    // The buyer's count stays at three: their link still refuses a fourth move of theirs.
    expect(stored?.buyer_moves).toBe(3);
    const free = await slotStarts();
    expect(free).toContain(later);
    expect(free).not.toContain(to);
    const [line] = await sql<{ detail: string; actor_name: string }>(
      `SELECT e.detail, e.actor_name FROM contact_events e JOIN appointments a ON a.contact_id = e.contact_id
       WHERE a.id = $1 AND e.kind = 'appointment' ORDER BY e.id DESC LIMIT 1`,
      [id],
    );
    expect(line?.detail).toMatch(
      /^Visita a la casa muestra · Casa muestra Mérida: reprogramada por el equipo, de .+ a .+$/,
    );
    expect(line?.actor_name).toBeTruthy();
    expect(await countRows('activity_log', "kind = 'appointment_moved' AND details ->> 'appointment' = $1", [id])).toBe(
      1,
    );
    // The buyer is told as for their own move: the calendar file's sequence raised once more (its update goes with
    // the WhatsApp and e-mail messages appointmentChanged() queues, tested with the buyer's moves).
    expect(await sequenceOf(id)).toBe(sequenceBefore + 1);
    // Moving it where it is answers the same and writes nothing more.
    const again = await move(admin, id, { start: to });
    expect(await again.json()).toMatchObject({ moved: false, start: to });
    expect(await countRows('activity_log', "kind = 'appointment_moved' AND details ->> 'appointment' = $1", [id])).toBe(
      1,
    );
  });

  it('lists the slots the move may take with the appointment’s own time free but its current start: Ana alone gives the visit, half an hour later is offered; after the buyer’s own move the list follows the stored start', async () => {
    const start = plan[16] as string;
    const halfHourLater = new Date(Date.parse(start) + 30 * 60_000).toISOString();
    const { id, token } = await booked(start);
    // The public list: Ana is busy then.
    expect(await slotStarts()).not.toContain(halfHourLater);
    const { from, to } = meridaDates(25);
    const slotsOf = async (cookie: string) => {
      const listed = await request(cookie, `/api/admin/appointments/${id}/slots?from=${from}&to=${to}`);
      expect(listed.status, await listed.clone().text()).toBe(200);
      expect(listed.headers.get('cache-control')).toBe('no-store');
      const answer = (await listed.json()) as { slots: FreeSlot[]; timeZone: string };
      expect(answer.timeZone).toBe('America/Merida');
      return answer.slots.map((slot) => slot.start);
    };
    const listed = await slotsOf(admin);
    expect(listed).toContain(halfHourLater);
    expect(listed).not.toContain(start);
    // The buyer moves it through their link while the panel is open: the panel's next list, Ana's own, offers
    // the time it left and not the one it holds now (the server's stored start, not the panel's copy).
    expect((await act({ t: token, action: 'reprogramar', start: halfHourLater })).status).toBe(200);
    await sql('UPDATE users SET password_hash = $2 WHERE id = $1', [ana, await hashPassword('ana-segura-manage-1')]);
    const signedIn = await login(server.url, 'ana.manage@ceiba.mx', 'ana-segura-manage-1');
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    const anaCookie = cookieOf(signedIn);
    const afterBuyer = await slotsOf(anaCookie);
    expect(afterBuyer).toContain(start);
    expect(afterBuyer).not.toContain(halfHourLater);
    // Another adviser's, no session, an unknown appointment, bad dates: refused as the move is.
    const forbidden = await request(adviser, `/api/admin/appointments/${id}/slots?from=${from}&to=${to}`);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({
      error: 'Solo quien da la cita o un administrador puede reprogramarla.',
    });
    expect((await request(null, `/api/admin/appointments/${id}/slots?from=${from}&to=${to}`)).status).toBe(401);
    expect((await request(admin, `/api/admin/appointments/${randomUUID()}/slots?from=${from}&to=${to}`)).status).toBe(
      404,
    );
    const bad = await request(admin, `/api/admin/appointments/${id}/slots?from=ayer&to=${to}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: expect.any(String), fields: { from: expect.any(String) } });
    for (const query of [`from=${to}&to=${from}`, `from=${from}&to=${meridaDates(90).to}`]) {
      const refused = await request(admin, `/api/admin/appointments/${id}/slots?${query}`);
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/\S/) });
    }
    // And the move, by its own member, takes what the list offered.
    const moved = await move(anaCookie, id, { start });
    expect(await moved.json()).toMatchObject({ moved: true, start, memberId: ana });
    // Once cancelled, neither a list nor a move.
    expect((await act({ t: token, action: 'cancelar' })).status).toBe(200);
    const closed = await request(admin, `/api/admin/appointments/${id}/slots?from=${from}&to=${to}`);
    expect(closed.status).toBe(409);
    expect(await closed.json()).toMatchObject({
      error: 'Esta cita ya está cancelada o marcada; ya no se puede reprogramar.',
    });
    expect((await move(admin, id, { start: halfHourLater })).status).toBe(409);
  });

  it('refuses another adviser’s appointment (403), a taken time (409), bad input (400) and no session (401), in Spanish', async () => {
    const [mine, theirs] = [plan[14] as string, plan[15] as string];
    const { id } = await booked(mine);
    await booked(theirs);
    const forbidden = await move(adviser, id, { start: theirs });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({
      error: 'Solo quien da la cita o un administrador puede reprogramarla.',
    });
    // Another person's visit with Ana, the only member who gives it.
    const taken = await move(admin, id, { start: theirs });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ error: 'Ese horario ya no está disponible. Elige otro de la lista.' });
    const bad = await move(admin, id, { start: 'mañana' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { start: 'Elige un horario de la lista.' } });
    expect((await move(null, id, { start: theirs })).status).toBe(401);
    // An administrator's session sent from another site: refused, nothing moved.
    const crossSite = await request(admin, `/api/admin/appointments/${id}/move`, {
      method: 'POST',
      body: JSON.stringify({ start: plan[13] }),
      headers: { Origin: 'https://otro.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await move(admin, randomUUID(), { start: theirs })).status).toBe(404);
    expect((await row(id))?.starts_at.toISOString()).toBe(mine);
  });
});
