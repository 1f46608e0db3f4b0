import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDetail, Metrics } from '../../src/lib/admin/contacts.ts';
import type { TodayAgenda, TodaySectionPage } from '../../src/lib/admin/today.ts';
import type { ContactPage } from '../../src/server/contacts/list.ts';
import { todayAgenda } from '../../src/server/contacts/today.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/** Issue #26: "Hoy" (overdue, today, new, the rest; mine and everyone's), the list's figures as filters, "Última actividad". */
let server: RunningServer;
let admin: string;
let ana: { id: string; cookie: string };
let beto: { id: string; cookie: string };
const call = memberRequest(() => server.url);
const get = async <T>(cookie: string, path: string): Promise<T> => {
  const answer = await call(cookie, path);
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
};

const MERIDA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' });
const today = MERIDA_DAY.format(new Date());
const dayFrom = (days: number) => {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

let phones = 0;
/** A contact as the team would have left it (written directly: the sections read only these columns). */
async function contact(
  name: string,
  fields: {
    state?: string;
    next?: string | null;
    to?: string | null;
    createdHoursAgo?: number;
    activityHoursAgo?: number;
  },
): Promise<string> {
  const state = fields.state ?? 'nuevo';
  const [row] = await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer, state, lost_reason, next_contact_at, assigned_to, created_at,
                           last_activity_at)
     VALUES ($1, $2, true, $3, $4, ($5::date + time '10:00') AT TIME ZONE 'America/Merida', $6, now() - make_interval(hours => $7), now() - make_interval(hours => $8))
     RETURNING id`,
    [
      `+5299${String(++phones).padStart(8, '0')}`,
      name,
      state,
      state === 'cerrado_perdido' ? 'otro' : null,
      fields.next ?? null,
      fields.to ?? null,
      fields.createdHoursAgo ?? 100,
      fields.activityHoursAgo ?? 1,
    ],
  );
  return row?.id as string;
}

const names = (page: TodaySectionPage) => page.items.map((item) => item.name);
const totals = (agenda: TodayAgenda) =>
  Object.fromEntries(Object.entries(agenda.sections).map(([section, page]) => [section, page.total]));

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
  ana = await inviteAdviser(server.url, admin, 'ana@ceiba.mx', 'Ana');
  beto = await inviteAdviser(server.url, admin, 'beto@ceiba.mx', 'Beto');
  await contact('Vencido dos días', { state: 'contactado', next: dayFrom(-2), to: ana.id });
  await contact('Vencido ayer de Beto', { state: 'en_seguimiento', next: dayFrom(-1), to: beto.id });
  await contact('Hoy de Ana', { state: 'contactado', next: today, to: ana.id });
  await contact('Nuevo de hace tres días', { createdHoursAgo: 72, to: ana.id });
  await contact('Nuevo de hace una hora', { createdHoursAgo: 1, to: ana.id });
  await contact('Nuevo sin asignar', { createdHoursAgo: 48 });
  await contact('Mañana', { state: 'contactado', next: dayFrom(1), to: ana.id, activityHoursAgo: 5 });
  await contact('En seguimiento sin fecha', { state: 'en_seguimiento', to: ana.id, activityHoursAgo: 2 });
  await contact('Ganado con fecha vieja', { state: 'cerrado_ganado', next: dayFrom(-1), to: ana.id });
  await contact('Perdido', { state: 'cerrado_perdido', to: ana.id });
});

describe('"Hoy"', () => {
  it('an adviser gets their own contacts: overdue, today, new oldest first, then the rest; totals equal the cards', async () => {
    const agenda = await get<TodayAgenda>(ana.cookie, '/api/admin/today');
    expect(agenda.scope).toBe('mine');
    expect(agenda.day).toBe(today);
    expect(names(agenda.sections.overdue)).toEqual(['Vencido dos días']);
    expect(names(agenda.sections.today)).toEqual(['Hoy de Ana']);
    expect(names(agenda.sections.new)).toEqual(['Nuevo de hace tres días', 'Nuevo de hace una hora']);
    expect(names(agenda.sections.rest)).toEqual(['En seguimiento sin fecha', 'Mañana']);
    expect(totals(agenda)).toEqual({ overdue: 1, today: 1, new: 2, rest: 2 });
    // The next contact is an instant: 10:00 in Mérida (UTC-6) of the day it was set for.
    expect(agenda.sections.today.items[0]?.nextContactAt).toBe(`${today}T16:00:00.000Z`);
  });

  it('an administrator gets everyone’s by default, and their own with scope=mine', async () => {
    const agenda = await get<TodayAgenda>(admin, '/api/admin/today');
    expect(agenda.scope).toBe('all');
    expect(names(agenda.sections.overdue)).toEqual(['Vencido dos días', 'Vencido ayer de Beto']);
    expect(names(agenda.sections.new)).toEqual([
      'Nuevo de hace tres días',
      'Nuevo sin asignar',
      'Nuevo de hace una hora',
    ]);
    expect(totals(agenda)).toEqual({ overdue: 2, today: 1, new: 3, rest: 2 });
    for (const page of Object.values(agenda.sections)) expect(page.items).toHaveLength(page.total);
    const mine = await get<TodayAgenda>(admin, '/api/admin/today?scope=mine');
    expect(totals(mine)).toEqual({ overdue: 0, today: 0, new: 0, rest: 0 });
  });

  it('everyone’s is the administrators’: an adviser asking for it gets 403, no session 401, a bad section 400', async () => {
    expect((await call(ana.cookie, '/api/admin/today?scope=all')).status).toBe(403);
    expect((await call(null, '/api/admin/today')).status).toBe(401);
    expect((await call(admin, '/api/admin/today?section=manana')).status).toBe(400);
    expect((await call(admin, '/api/admin/today?section=new&cursor=roto')).status).toBe(400);
    // A cursor of year 0 (JavaScript's dates take it, PostgreSQL's do not): 400, not the 503 of a refused query.
    const yearZero = Buffer.from(`0000-01-01T00:00:00.000000Z|${randomUUID()}`).toString('base64url');
    for (const path of [
      `/api/admin/today?section=new&cursor=${yearZero}`,
      `/api/admin/contacts?cursor=${yearZero}`,
      `/api/admin/pipeline?state=nuevo&cursor=${yearZero}`,
    ])
      expect((await call(admin, path)).status, path).toBe(400);
  });

  it('a long section comes 10 at a time, in its order, with its total on every page', async () => {
    const carla = await inviteAdviser(server.url, admin, 'carla@ceiba.mx', 'Carla');
    for (let i = 0; i < 23; i++) await contact(`Nuevo ${i}`, { createdHoursAgo: 200 - i, to: carla.id });
    const agenda = await get<TodayAgenda>(carla.cookie, '/api/admin/today');
    const first = agenda.sections.new;
    expect(first.total).toBe(23);
    expect(first.items).toHaveLength(10);
    const second = await get<TodaySectionPage>(
      carla.cookie,
      `/api/admin/today?section=new&cursor=${first.nextCursor ?? ''}`,
    );
    expect(second.total).toBe(23);
    expect(second.items).toHaveLength(10);
    const next = await get<TodaySectionPage>(
      carla.cookie,
      `/api/admin/today?section=new&cursor=${second.nextCursor ?? ''}`,
    );
    expect(next.nextCursor).toBeNull();
    expect([...names(first), ...names(second), ...names(next)]).toEqual(
      Array.from({ length: 23 }, (_, i) => `Nuevo ${i}`),
    );
  });
});

describe('"today" is Mérida’s day (UTC-6), not the server’s', () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });
  afterAll(() => pool.end());

  it('a contact due on 25 November is "later" at 23:59 of the 24th in Mérida, "today" from midnight, overdue on the 26th', async () => {
    const dora = await inviteAdviser(server.url, admin, 'dora@ceiba.mx', 'Dora');
    const id = await contact('El 25', { state: 'contactado', next: '2026-11-25', to: dora.id });
    const sectionAt = async (instant: string) => {
      const agenda = await todayAgenda(pool, { scope: 'mine', memberId: dora.id }, new Date(instant));
      return Object.entries(agenda.sections).find(([, page]) => page.total > 0)?.[0];
    };
    // 00:30 UTC of the 25th is 18:30 of the 24th in Mérida: a server in UTC would already say "today".
    expect(await sectionAt('2026-11-25T00:30:00Z')).toBe('rest');
    expect(await sectionAt('2026-11-25T05:59:59Z')).toBe('rest');
    expect(await sectionAt('2026-11-25T06:00:00Z')).toBe('today');
    expect(await sectionAt('2026-11-26T05:59:59Z')).toBe('today');
    expect(await sectionAt('2026-11-26T06:00:00Z')).toBe('overdue');
    expect((await todayAgenda(pool, { scope: 'mine', memberId: dora.id }, new Date('2026-11-25T05:59:59Z'))).day).toBe(
      '2026-11-24',
    );
    await sql('DELETE FROM contacts WHERE id = $1', [id]);
  });
});

describe('the list’s filters in the URL count what they list', () => {
  it('"Mis prospectos" of a new adviser: 0 prospectos and zero chips, not the whole team’s (the defect)', async () => {
    const eva = await inviteAdviser(server.url, admin, 'eva@ceiba.mx', 'Eva');
    const page = await get<ContactPage>(eva.cookie, '/api/admin/contacts?assigned=me');
    expect(page.items).toEqual([]);
    expect(page.total).toBe(0);
    expect(page.counts).toEqual({
      nuevo: 0,
      contactado: 0,
      en_seguimiento: 0,
      visita_agendada: 0,
      visito: 0,
      cerrado_ganado: 0,
      cerrado_perdido: 0,
    });
  });

  it('"Mis prospectos" with a state chip: the chips count the adviser’s contacts, the total is the chip’s', async () => {
    const all = await get<ContactPage>(ana.cookie, '/api/admin/contacts?assigned=me');
    expect(all.capped).toBe(false);
    expect(all.total).toBe(all.items.length);
    expect(all.counts).toEqual({
      nuevo: 2,
      contactado: 3,
      en_seguimiento: 1,
      visita_agendada: 0,
      visito: 0,
      cerrado_ganado: 1,
      cerrado_perdido: 1,
    });
    const contacted = await get<ContactPage>(ana.cookie, '/api/admin/contacts?assigned=me&state=contactado');
    expect(contacted.total).toBe(3);
    expect(contacted.items.map((item) => item.state)).toEqual(['contactado', 'contactado', 'contactado']);
  });

  it('each figure opens the list it counts: overdue and unattended as the metrics count them, today, new', async () => {
    const metrics = await get<Metrics>(admin, '/api/admin/metrics');
    const overdue = await get<ContactPage>(admin, '/api/admin/contacts?agenda=vencidos');
    expect(overdue.total).toBe(metrics.overdue);
    expect(overdue.items.map((item) => item.name).sort()).toEqual(['Vencido ayer de Beto', 'Vencido dos días']);
    // A new contact already answered on WhatsApp, two days old: attended, in neither the figure nor its list.
    await sql(
      `INSERT INTO contacts (phone, name, is_buyer, created_at, first_replied_at)
       VALUES ('+529994440777', 'Respondido por WhatsApp', true, now() - interval '48 hours', now() - interval '40 hours')`,
    );
    const unattended = await get<ContactPage>(admin, '/api/admin/contacts?agenda=sin_atender');
    expect(unattended.total).toBe(metrics.unattended);
    expect(unattended.items.every((item) => item.state === 'nuevo' && item.unattended)).toBe(true);
    const mineToday = await get<ContactPage>(ana.cookie, '/api/admin/contacts?agenda=hoy&assigned=me');
    expect(mineToday.items.map((item) => item.name)).toEqual(['Hoy de Ana']);
    expect(mineToday.total).toBe(1);
    const agenda = await get<TodayAgenda>(ana.cookie, '/api/admin/today');
    const mineNew = await get<ContactPage>(ana.cookie, '/api/admin/contacts?agenda=nuevos&assigned=me');
    expect(mineNew.total).toBe(agenda.sections.new.total);
    expect((await call(admin, '/api/admin/contacts?agenda=manana')).status).toBe(400);
  });
});

describe('"Última actividad" follows the work done with the person', () => {
  const activity = async (id: string) => (await get<ContactDetail>(admin, `/api/admin/contacts/${id}`)).lastActivityAt;

  it('a state change and a note move it; an assignment alone does not', async () => {
    const id = await contact('Para mover', { activityHoursAgo: 48 });
    const before = await activity(id);
    const { version } = await get<ContactDetail>(admin, `/api/admin/contacts/${id}`);
    const assigned = await call(admin, `/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ assignedTo: ana.id, version }),
    });
    expect(assigned.status).toBe(200);
    expect(await activity(id)).toBe(before);

    const moved = await call(admin, `/api/admin/contacts/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ state: 'contactado', version: version + 1 }),
    });
    expect(moved.status).toBe(200);
    const afterState = await activity(id);
    expect(Date.now() - new Date(afterState).getTime()).toBeLessThan(60_000);

    await sql(`UPDATE contacts SET last_activity_at = now() - interval '3 days' WHERE id = $1`, [id]);
    const noted = await call(ana.cookie, `/api/admin/contacts/${id}/notes`, {
      method: 'POST',
      body: JSON.stringify({ body: 'Llamó por la tarde.' }),
    });
    expect(noted.status).toBe(201);
    expect(Date.now() - new Date(await activity(id)).getTime()).toBeLessThan(60_000);
  });

  it('a note on a contact that does not exist writes nothing (404)', async () => {
    const answer = await call(admin, '/api/admin/contacts/00000000-0000-4000-8000-000000000000/notes', {
      method: 'POST',
      body: JSON.stringify({ body: 'Nadie.' }),
    });
    expect(answer.status).toBe(404);
  });
});

describe('what a person reads on the contact’s page', () => {
  it('the phone the national way, "Fuente" for utm_source, the moment the notice was accepted apart from its version', async () => {
    // 23:31 UTC of the day before yesterday: 5:31 p. m. in Mérida, in the past and within the outbox's week.
    const accepted = new Date();
    accepted.setUTCDate(accepted.getUTCDate() - 2);
    accepted.setUTCHours(23, 31, 0, 0);
    const sent = await postJson(
      `${server.url}/api/quick-quotes`,
      quickQuote({
        name: 'Lectura Humana',
        phone: '9991000000',
        utm_source: 'facebook',
        privacy_version: '2026-11-23',
        privacy_accepted_at: accepted.toISOString(),
      }),
    );
    expect(sent.status).toBe(201);
    const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', ['+529991000000']);
    const detail = await get<ContactDetail>(admin, `/api/admin/contacts/${row?.id}`);
    expect(detail.phone).toBe('+529991000000'); // links and exports keep E.164
    const request = detail.timeline.find((entry) => entry.type === 'request');
    const fields = Object.fromEntries(request && 'fields' in request ? request.fields : []);
    expect(fields.Teléfono).toBe('999 100 0000');
    expect(fields.Fuente).toBe('facebook');
    expect(fields).not.toHaveProperty('utm_source');
    expect(fields['Aviso de privacidad aceptado']).toMatch(/^\d{1,2} [a-z]{3} \d{4}, 5:31\s?p\.\s?m\.$/);
    expect(fields['Versión del aviso de privacidad']).toBe('23 nov 2026');
  });
});
