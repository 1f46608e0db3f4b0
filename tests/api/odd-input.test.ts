import { beforeAll, describe, expect, it } from 'vitest';
import { passkeyNameSchema } from '../../src/lib/admin/team.ts';
import { memberRequest, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #23, item 9: odd input the team's API used to answer with a 503
 * ("base de datos"): a NUL character (PostgreSQL cannot store one) and a
 * note racing the erasure of its contact (a foreign key). Each is now a 4xx.
 */
const INVALID = 'Contiene caracteres no válidos.';

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
});

const call = memberRequest(() => server.url);
const post = (cookie: string | null, path: string, body: unknown) =>
  call(cookie, path, { method: 'POST', body: JSON.stringify(body) });
const uniquePhone = () => `98${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** A new contact, from a quick quote as a visitor sends it. */
async function newContact(): Promise<string> {
  const phone = uniquePhone();
  expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ phone }))).status).toBe(201);
  const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
  return row?.id as string;
}

describe('a NUL or another control character', () => {
  it('in a note is a 400 naming the field, and nothing is stored; line breaks and tabs are kept, bidi controls removed', async () => {
    const id = await newContact();
    for (const body of ['llamar\u0000mañana', '\u0000', 'timbre\u0007', 'a\u001bb']) {
      const answer = await post(admin, `/api/admin/contacts/${id}/notes`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toEqual({ error: 'Revisa la nota.', fields: { body: INVALID } });
    }
    expect(await countRows('contact_notes', 'contact_id = $1', [id])).toBe(0);

    expect((await post(admin, `/api/admin/contacts/${id}/notes`, { body: 'Llamar:\n\tlunes\r\n' })).status).toBe(201);
    expect((await post(admin, `/api/admin/contacts/${id}/notes`, { body: '\u202Eodnum aloh' })).status).toBe(201);
    const notes = await sql<{ body: string }>(
      'SELECT body FROM contact_notes WHERE contact_id = $1 ORDER BY created_at',
      [id],
    );
    expect(notes.map((note) => note.body)).toEqual(['Llamar:\n\tlunes', 'odnum aloh']);
  });

  it('in the search or the campaign filter is a 400, in the list and in its CSV', async () => {
    for (const query of ['q=%00', 'q=ana%00lopez', 'campaign=verano%00', 'q=%07']) {
      for (const path of ['/api/admin/contacts', '/api/admin/contacts/export.csv']) {
        const answer = await call(admin, `${path}?${query}`);
        expect(answer.status, `${path}?${query}`).toBe(400);
        const { error, fields } = (await answer.json()) as { error: string; fields: Record<string, string> };
        expect(error).toBe('Revisa los filtros.');
        expect(Object.values(fields)).toEqual([INVALID]);
      }
    }
    // A search still works around it.
    expect((await call(admin, '/api/admin/contacts?q=%E2%80%AEana')).status).toBe(200);
  });

  it('in the name of an invitation being accepted is a 400, and nobody joins', async () => {
    const invitation = await post(admin, '/api/admin/team/invitations', { email: 'nul@ceiba.mx', role: 'asesor' });
    expect(invitation.status).toBe(201);
    const token = ((await invitation.json()) as { link: string }).link.split('#')[1];
    const users = await countRows('users');
    const answer = await post(null, '/api/auth/invitation', { token, name: 'Ana\u0000', password: 'clave-segura-1' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { fields: Record<string, string> }).fields).toEqual({ name: INVALID });
    expect(await countRows('users')).toBe(users);
    // The same link still works with a proper name.
    expect((await post(null, '/api/auth/invitation', { token, name: 'Ana', password: 'clave-segura-1' })).status).toBe(
      201,
    );
  });

  it('in the name of a passkey is refused before any ceremony', () => {
    const parsed = passkeyNameSchema.safeParse('Teléfono\u0000');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([INVALID]);
    expect(passkeyNameSchema.parse(' \u2066Teléfono\u2069 ')).toBe('Teléfono');
  });
});

describe('a note racing the erasure of its contact', () => {
  it('is stored before it (201, then erased with it) or answered 404, never 5xx; nothing of the contact remains', async () => {
    const ROUNDS = 8;
    const statuses = new Map<string, number[]>();
    const record = (kind: string, status: number) => statuses.set(kind, [...(statuses.get(kind) ?? []), status]);
    const erased: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await newContact();
      const notes = `/api/admin/contacts/${id}/notes`;
      const existing = await Promise.all(
        [1, 2].map(async (index) => {
          const answer = await post(admin, notes, { body: `Nota previa ${index}` });
          return ((await answer.json()) as { id: string }).id;
        }),
      );
      // Started a little apart so some land before the erasure, some during it and some after.
      const later = <T>(ms: number, work: () => Promise<T>) =>
        new Promise<T>((resolve, reject) => setTimeout(() => work().then(resolve, reject), ms));
      await Promise.all([
        call(admin, `/api/admin/contacts/${id}`, { method: 'DELETE' }).then((answer) => record('erase', answer.status)),
        ...[0, 1, 2, 4, 8, 16].map((ms) =>
          later(ms, () => post(admin, notes, { body: `Nota en carrera ${ms}` })).then((answer) =>
            record('note', answer.status),
          ),
        ),
        ...existing.map((noteId, index) =>
          later(index * 3, () => call(admin, `${notes}/${noteId}`, { method: 'DELETE' })).then((answer) =>
            record('note deletion', answer.status),
          ),
        ),
      ]);
      erased.push(id);
    }
    // Before: notes got 503 (foreign key violation) and erasures 503 (deadlock with a note deletion).
    expect(statuses.get('erase')).toEqual(Array(ROUNDS).fill(200));
    expect(statuses.get('note')?.filter((status) => status !== 201 && status !== 404)).toEqual([]);
    expect(statuses.get('note deletion')?.filter((status) => status !== 204 && status !== 404)).toEqual([]);
    expect(server.output()).not.toContain('"status":503');
    expect(await countRows('contacts', 'id = ANY($1)', [erased])).toBe(0);
    expect(await countRows('contact_notes', 'contact_id = ANY($1)', [erased])).toBe(0);
  });
});
