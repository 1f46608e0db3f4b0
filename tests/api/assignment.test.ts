import { beforeAll, describe, expect, it } from 'vitest';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/** Issue #12: a contact assigned to a member, "Mis prospectos", and the optional round-robin among advisers. */
let server: RunningServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
});

const call = (cookie: string, path: string, init: RequestInit = {}) =>
  fetch(server.url + path, {
    ...init,
    headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json', ...init.headers },
  });
const uniquePhone = () => `99${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

let invited = 0;
const adviser = (name: string) => inviteAdviser(server.url, admin, `asesor${++invited}@ceiba.mx`, name);

async function newContact(): Promise<string> {
  const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone: uniquePhone() }));
  const { id } = (await answer.json()) as { id: string };
  const [row] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [id]);
  return row?.contact_id as string;
}

async function detail(cookie: string, id: string) {
  return (await (await call(cookie, `/api/admin/contacts/${id}`)).json()) as {
    version: number;
    assignedTo: { id: string; name: string } | null;
    timeline: { type: string; kind?: string; actor?: string | null; from?: string | null; to?: string | null }[];
  };
}

describe('assignment', () => {
  it('an administrator assigns a contact; it is in the history, the activity log and the adviser’s "Mis prospectos"', async () => {
    const ana = await adviser('Ana Chan');
    const contact = await newContact();
    const before = await detail(admin, contact);
    expect(before.assignedTo).toBeNull();
    const assigned = await call(admin, `/api/admin/contacts/${contact}`, {
      method: 'PATCH',
      body: JSON.stringify({ assignedTo: ana.id, version: before.version }),
    });
    expect(assigned.status).toBe(200);
    const after = await detail(admin, contact);
    expect(after.assignedTo).toEqual({ id: ana.id, name: 'Ana Chan' });
    expect(after.timeline.find((entry) => entry.kind === 'assigned')).toMatchObject({
      actor: 'admin@ceiba.mx',
      from: null,
      to: 'Ana Chan',
    });
    const [logged] = await sql<{ summary: string }>(`SELECT summary FROM activity_log WHERE kind = 'assignment'`);
    expect(logged?.summary).toMatch(/^Asignó a .+ a Ana Chan$/);

    const mine = (await (await call(ana.cookie, '/api/admin/contacts?assigned=me')).json()) as {
      items: { id: string }[];
    };
    expect(mine.items.map((item) => item.id)).toEqual([contact]);
    const unassigned = (await (await call(admin, '/api/admin/contacts?assigned=none')).json()) as {
      items: { id: string }[];
    };
    expect(unassigned.items.map((item) => item.id)).not.toContain(contact);
    expect((await call(admin, '/api/admin/contacts?assigned=alguien')).status).toBe(400);
  });

  it('an adviser cannot reassign (403), and nobody can assign to someone outside the active team (400)', async () => {
    const pedro = await adviser('Pedro Uc');
    const contact = await newContact();
    const { version } = await detail(admin, contact);
    const byAdviser = await call(pedro.cookie, `/api/admin/contacts/${contact}`, {
      method: 'PATCH',
      body: JSON.stringify({ assignedTo: pedro.id, version }),
    });
    expect(byAdviser.status).toBe(403);
    const nobody = await call(admin, `/api/admin/contacts/${contact}`, {
      method: 'PATCH',
      body: JSON.stringify({ assignedTo: '00000000-0000-4000-8000-000000000000', version }),
    });
    expect(nobody.status).toBe(400);
    expect(((await nobody.json()) as { fields: Record<string, string> }).fields.assignedTo).toBe(
      'Elige a un miembro activo del equipo.',
    );
  });

  it('with the round-robin on, new contacts go to the active advisers in turn; a deactivated one is skipped', async () => {
    await sql(`UPDATE users SET deactivated_at = now() WHERE email LIKE 'asesor%'`);
    const luis = await adviser('Luis May');
    const rosa = await adviser('Rosa Ek');
    const carla = await adviser('Carla Dzul');
    await call(admin, `/api/admin/team/members/${carla.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ active: false }),
    });
    const on = await call(admin, '/api/admin/team/settings', {
      method: 'PATCH',
      body: JSON.stringify({ roundRobin: true }),
    });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { roundRobin: boolean }).roundRobin).toBe(true);

    const contacts: string[] = [];
    for (let index = 0; index < 4; index += 1) contacts.push(await newContact());
    const owners = await Promise.all(contacts.map(async (id) => (await detail(admin, id)).assignedTo?.name));
    expect(owners.filter((name) => name === 'Luis May')).toHaveLength(2);
    expect(owners.filter((name) => name === 'Rosa Ek')).toHaveLength(2);
    expect(owners[0]).not.toBe(owners[1]);
    expect(owners).not.toContain('Carla Dzul');
    const automatic = (await detail(admin, contacts[0] as string)).timeline.find((entry) => entry.kind === 'assigned');
    expect(automatic).toMatchObject({ actor: null, from: null });
    expect([luis.id, rosa.id]).toHaveLength(2);

    await call(admin, '/api/admin/team/settings', { method: 'PATCH', body: JSON.stringify({ roundRobin: false }) });
    expect((await detail(admin, await newContact())).assignedTo).toBeNull();
    const [setting] = await sql<{ summary: string }>(
      `SELECT summary FROM activity_log WHERE kind = 'settings_changed' ORDER BY at DESC LIMIT 1`,
    );
    expect(setting?.summary).toBe('Desactivó la asignación por turnos de los prospectos nuevos');
  });
});
