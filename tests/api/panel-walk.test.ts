import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metrics } from '../../src/lib/admin/contacts.ts';
import type { RemindersView } from '../../src/lib/admin/push.ts';
import type { TeamView } from '../../src/lib/admin/team.ts';
import type { TodayAgenda } from '../../src/lib/admin/today.ts';
import type { ContactPage } from '../../src/server/contacts/list.ts';
import { inviteAdviser, login, memberRequest, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #38, items 13 and 14, what the sales team saw. Item 13: "Vencidos" was three numbers on one screen (the badge
 * 4, the figure of "Hoy" 3, "Métricas" 1). One definition (an open contact
 * whose next contact was set for a day before today in Mérida), one count:
 * the badge, "Hoy", "Métricas" and the list they open agree, and the badge
 * says whose contacts it counts.
 */
let server: RunningServer;
let admin: string;
let ana: { id: string; cookie: string };
const call = memberRequest(() => server.url);
const get = async <T>(cookie: string, path: string): Promise<T> => {
  const answer = await call(cookie, path);
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
};

let phones = 0;
/** A contact whose next contact is `next` (SQL for an instant), as the team left it. */
async function contact(name: string, next: string, fields: { state?: string; to?: string } = {}): Promise<void> {
  const state = fields.state ?? 'contactado';
  await sql(
    `INSERT INTO contacts (phone, name, is_buyer, state, lost_reason, next_contact_at, assigned_to)
     VALUES ($1, $2, true, $3, $4, ${next}, $5)`,
    [
      `+5299${String(++phones).padStart(8, '0')}`,
      name,
      state,
      state === 'cerrado_perdido' ? 'otro' : null,
      fields.to ?? null,
    ],
  );
}

/** Today's start in Mérida, and a day before it. */
const TODAY_START = `(date_trunc('day', now() AT TIME ZONE 'America/Merida') AT TIME ZONE 'America/Merida')`;
const YESTERDAY = `${TODAY_START} - interval '14 hours'`;

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
  ana = await inviteAdviser(server.url, admin, 'ana@ceiba.mx', 'Ana');
  // Where the old definitions disagreed:
  // due earlier today (the badge counted it, "Hoy" and "Métricas" did not),
  await contact('Hoy a primera hora, sin asignar', TODAY_START);
  await contact('Hoy a primera hora de Ana', TODAY_START, { to: ana.id });
  // overdue from yesterday, of an adviser (the administrator's badge left it out, "Hoy" counted it),
  await contact('Ayer de Ana', YESTERDAY, { to: ana.id });
  await contact('Ayer, en seguimiento de Ana', YESTERDAY, { to: ana.id, state: 'en_seguimiento' });
  // overdue from yesterday, nobody's,
  await contact('Ayer sin asignar', YESTERDAY, { state: 'nuevo' });
  // and closed ones, which nobody counts.
  await contact('Ganado de ayer', YESTERDAY, { state: 'cerrado_ganado', to: ana.id });
  await contact('Perdido de ayer', YESTERDAY, { state: 'cerrado_perdido' });
});
afterAll(() => server?.stop());

describe('"Vencidos"', () => {
  it('an administrator: the badge, the figure of "Hoy", "Métricas" and the list it opens count the same contacts', async () => {
    const badge = await get<RemindersView>(admin, '/api/admin/reminders');
    const today = await get<TodayAgenda>(admin, '/api/admin/today');
    const metrics = await get<Metrics>(admin, '/api/admin/metrics');
    const list = await get<ContactPage>(admin, '/api/admin/contacts?agenda=vencidos');
    expect(badge.scope).toBe('all');
    expect({
      badge: badge.due,
      hoy: today.sections.overdue.total,
      metricas: metrics.overdue,
      lista: list.total,
    }).toEqual({ badge: 3, hoy: 3, metricas: 3, lista: 3 });
    expect(list.items.map((item) => item.name).sort()).toEqual([
      'Ayer de Ana',
      'Ayer sin asignar',
      'Ayer, en seguimiento de Ana',
    ]);
    // Today's early ones are "Para hoy" everywhere.
    expect(today.sections.today.total).toBe(2);
  });

  it('an adviser: the badge counts their own, as their "Hoy" does; "Métricas" is the team’s', async () => {
    const badge = await get<RemindersView>(ana.cookie, '/api/admin/reminders');
    const today = await get<TodayAgenda>(ana.cookie, '/api/admin/today');
    const list = await get<ContactPage>(ana.cookie, `/api/admin/contacts?agenda=vencidos&assigned=${ana.id}`);
    expect(badge.scope).toBe('mine');
    expect({ badge: badge.due, hoy: today.sections.overdue.total, lista: list.total }).toEqual({
      badge: 2,
      hoy: 2,
      lista: 2,
    });
    expect((await get<Metrics>(ana.cookie, '/api/admin/metrics')).overdue).toBe(3);
  });
});

describe('"Último acceso" on the team page', () => {
  it('follows every session opened: the setup, an accepted invitation, a password sign-in', async () => {
    const accessOf = async () =>
      Object.fromEntries(
        (await get<TeamView>(admin, '/api/admin/team')).members.map((member) => [member.email, member.lastSignInAt]),
      );
    const before = await accessOf();
    // The first administrator signed in by the setup, Ana by accepting her invitation: neither is "nunca".
    expect(before['admin@ceiba.mx']).toEqual(expect.any(String));
    expect(before['ana@ceiba.mx']).toEqual(expect.any(String));
    await login(server.url, 'ana@ceiba.mx', 'asesor-seguro-1');
    const after = await accessOf();
    expect(Date.parse(after['ana@ceiba.mx'] ?? '')).toBeGreaterThanOrEqual(Date.parse(before['ana@ceiba.mx'] ?? ''));
  });
});
