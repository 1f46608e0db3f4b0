import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, login, originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #24, item 6: a change and its entry in the activity log commit
 * together or not at all. PostgreSQL itself refuses the entry (a trigger on
 * activity_log), and each change must then be absent, not half-made.
 */
let server: RunningServer;
let admin: string;
const PASSWORD = 'contraseña-segura';

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url, 'admin@ceiba.mx', PASSWORD);
  await sql(`CREATE FUNCTION refuse_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the activity log refuses this entry (test)'; END $$`);
});

/** From here until the test ends, every write to the activity log fails. */
const refuseActivity = () =>
  sql('CREATE TRIGGER refuse_activity BEFORE INSERT ON activity_log FOR EACH ROW EXECUTE FUNCTION refuse_activity()');

afterEach(async () => {
  await sql('DROP TRIGGER IF EXISTS refuse_activity ON activity_log');
});

const api = (pathname: string, method: string, body?: unknown, cookie = admin) =>
  fetch(server.url + pathname, {
    method,
    headers: { Cookie: cookie, Origin: originOf(server.url), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newContact(): Promise<{ id: string; leadId: string }> {
  const phone = `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Rosa Pech', phone }));
  expect(answer.status).toBe(201);
  const [row] = await sql<{ id: string; lead: string }>(
    `SELECT c.id, q.id AS lead FROM contacts c JOIN cotizaciones_rapidas q ON q.contact_id = c.id WHERE c.phone = $1`,
    [`+52${phone}`],
  );
  return { id: row?.id as string, leadId: row?.lead as string };
}

const contactRow = async (id: string) =>
  (await sql('SELECT state, assigned_to, version FROM contacts WHERE id = $1', [id]))[0];

describe('a change whose activity entry cannot be written is not made', () => {
  it("a contact's state and assignment (PATCH): 503, the contact and its history as they were", async () => {
    const { id } = await newContact();
    const [me] = await sql<{ id: string }>(`SELECT id FROM users WHERE email = 'admin@ceiba.mx'`);
    const before = await contactRow(id);
    const events = await countRows('contact_events', 'contact_id = $1', [id]);
    await refuseActivity();
    for (const change of [{ state: 'contactado' }, { assignedTo: me?.id }]) {
      const answer = await api(`/api/admin/contacts/${id}`, 'PATCH', { ...change, version: before?.version });
      expect(answer.status, JSON.stringify(change)).toBe(503);
      expect(await contactRow(id)).toEqual(before);
      expect(await countRows('contact_events', 'contact_id = $1', [id])).toBe(events);
    }
    // The same change goes through, with its entry, once the log takes it.
    await sql('DROP TRIGGER refuse_activity ON activity_log');
    const answer = await api(`/api/admin/contacts/${id}`, 'PATCH', { state: 'contactado', version: before?.version });
    expect(answer.status).toBe(200);
    expect(await countRows('activity_log', `kind = 'state_change' AND details ->> 'contact' = $1`, [id])).toBe(1);
  });

  it('the deletion of a note: 503, the note still shown and its history as it was', async () => {
    const { id } = await newContact();
    const added = await api(`/api/admin/contacts/${id}/notes`, 'POST', { body: 'Llamar el lunes' });
    const { id: noteId } = (await added.json()) as { id: string };
    const events = await countRows('contact_events', 'contact_id = $1', [id]);
    await refuseActivity();
    expect((await api(`/api/admin/contacts/${id}/notes/${noteId}`, 'DELETE')).status).toBe(503);
    expect(await countRows('contact_notes', 'id = $1 AND deleted_at IS NULL', [noteId])).toBe(1);
    expect(await countRows('contact_events', 'contact_id = $1', [id])).toBe(events);
  });

  it('the deletion of a lead: 503, the lead still there', async () => {
    const { leadId } = await newContact();
    await refuseActivity();
    expect((await api(`/api/admin/quick-quotes/${leadId}`, 'DELETE')).status).toBe(503);
    expect(await countRows('cotizaciones_rapidas', 'id = $1', [leadId])).toBe(1);
  });

  it("a person's erasure (ARCO): 503, the person still there", async () => {
    const { id, leadId } = await newContact();
    await refuseActivity();
    expect((await api(`/api/admin/contacts/${id}`, 'DELETE')).status).toBe(503);
    expect(await countRows('contacts', 'id = $1', [id])).toBe(1);
    expect(await countRows('cotizaciones_rapidas', 'id = $1', [leadId])).toBe(1);
  });

  it('the team: an invitation and a change of settings are not made', async () => {
    const invitations = await countRows('invitations');
    const [settings] = await sql('SELECT round_robin FROM team_settings');
    await refuseActivity();
    expect((await api('/api/admin/team/invitations', 'POST', { email: 'nadie@ceiba.mx', role: 'asesor' })).status).toBe(
      503,
    );
    expect(await countRows('invitations')).toBe(invitations);
    const roundRobin = !(settings as { round_robin: boolean }).round_robin;
    expect((await api('/api/admin/team/settings', 'PATCH', { roundRobin })).status).toBe(503);
    expect(await sql('SELECT round_robin FROM team_settings')).toEqual([settings]);
  });

  it('a password change and a sign-in: 503, the old password still the one, no session opened', async () => {
    await refuseActivity();
    const change = await api('/api/auth/password', 'POST', { current: PASSWORD, password: 'otra-clave-segura-1' });
    expect(change.status).toBe(503);
    const sessions = await countRows('sessions');
    expect((await login(server.url, 'admin@ceiba.mx', PASSWORD)).status).toBe(503);
    expect(await countRows('sessions')).toBe(sessions);
    await sql('DROP TRIGGER refuse_activity ON activity_log');
    const signedIn = await login(server.url, 'admin@ceiba.mx', PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(cookieOf(signedIn)).not.toBe('');
  });
});
