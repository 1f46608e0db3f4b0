import { beforeAll, describe, expect, it } from 'vitest';
import { inviteAdviser, originOf, setupAdmin } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';

/**
 * Issue #25, item 5: an adviser deletes only their own notes, an
 * administrator any, and every deletion is in the activity log.
 */
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

let invited = 0;
const adviser = (name: string) => inviteAdviser(server.url, admin, `notas${++invited}@ceiba.mx`, name);

async function newContact(): Promise<string> {
  const phone = `97${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const answer = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Rosa Pech', phone }));
  const { id } = (await answer.json()) as { id: string };
  const [row] = await sql<{ contact_id: string }>('SELECT contact_id FROM cotizaciones_rapidas WHERE id = $1', [id]);
  return row?.contact_id as string;
}

async function note(cookie: string, contactId: string, body: string): Promise<string> {
  const answer = await call(cookie, `/api/admin/contacts/${contactId}/notes`, {
    method: 'POST',
    body: JSON.stringify({ body }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

const remove = (cookie: string, contactId: string, noteId: string) =>
  call(cookie, `/api/admin/contacts/${contactId}/notes/${noteId}`, { method: 'DELETE' });

const notesShown = async (cookie: string, contactId: string) =>
  (
    (await (await call(cookie, `/api/admin/contacts/${contactId}`)).json()) as {
      timeline: { type: string; body?: string; authorId?: string | null }[];
    }
  ).timeline.filter((entry) => entry.type === 'note');

describe('deleting notes', () => {
  it("an adviser deletes their own note but not a colleague's (403, in Spanish); the note stays", async () => {
    const [ana, luis] = [await adviser('Ana Chan'), await adviser('Luis May')];
    const contact = await newContact();
    const mine = await note(ana.cookie, contact, 'Llamar el lunes');
    const theirs = await note(luis.cookie, contact, 'Quiere el modelo Lumo');
    const adminNote = await note(admin, contact, 'Revisar crédito');

    for (const id of [theirs, adminNote]) {
      const refused = await remove(ana.cookie, contact, id);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        error: 'Solo puedes eliminar tus propias notas. Pide a un administrador que elimine esta.',
      });
    }
    expect(await countRows('contact_notes', 'contact_id = $1 AND deleted_at IS NULL', [contact])).toBe(3);
    expect(await countRows('activity_log', `kind = 'note_deleted' AND details ->> 'contact' = $1`, [contact])).toBe(0);

    expect((await remove(ana.cookie, contact, mine)).status).toBe(204);
    // The detail says who wrote each note, so the panel offers «Eliminar» only where it may.
    expect(await notesShown(ana.cookie, contact)).toEqual([
      expect.objectContaining({ body: 'Quiere el modelo Lumo', authorId: luis.id }),
      expect.objectContaining({ body: 'Revisar crédito' }),
    ]);
  });

  it("an administrator deletes anyone's note; each deletion is in the activity log, naming who and whose contact", async () => {
    const ana = await adviser('Ana Canché');
    const contact = await newContact();
    const hers = await note(ana.cookie, contact, 'Visita el sábado, tel. 999 111 2233');
    const own = await note(ana.cookie, contact, 'Confirmó la visita');

    expect((await remove(admin, contact, hers)).status).toBe(204);
    expect((await remove(ana.cookie, contact, own)).status).toBe(204);
    expect(await notesShown(admin, contact)).toEqual([]);

    const entries = await sql<{ actor_name: string; summary: string; details: Record<string, string> }>(
      `SELECT actor_name, summary, details FROM activity_log
       WHERE kind = 'note_deleted' AND details ->> 'contact' = $1 ORDER BY at`,
      [contact],
    );
    expect(entries).toEqual([
      {
        actor_name: 'admin@ceiba.mx',
        summary: 'Eliminó una nota de Rosa Pech',
        details: expect.objectContaining({ note: hers, author: ana.id }),
      },
      {
        actor_name: 'Ana Canché',
        summary: 'Eliminó una nota de Rosa Pech',
        details: expect.objectContaining({ note: own, author: ana.id }),
      },
    ]);
    // The text of a note is not copied into the log (which outlives the person's erasure).
    expect(entries.map((entry) => entry.summary).join()).not.toContain('999');

    // The log's own view lists them under their kind.
    const log = (await (await call(admin, '/api/admin/activity?kind=note_deleted')).json()) as {
      items: { summary: string }[];
    };
    expect(log.items.filter((item) => item.summary === 'Eliminó una nota de Rosa Pech').length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('an unknown note or contact is a 404, for an adviser too', async () => {
    const ana = await adviser('Ana Ek');
    const contact = await newContact();
    const gone = await note(ana.cookie, contact, 'Nota');
    expect((await remove(ana.cookie, contact, gone)).status).toBe(204);
    expect((await remove(ana.cookie, contact, gone)).status).toBe(404);
    expect((await remove(ana.cookie, '00000000-0000-4000-8000-000000000000', gone)).status).toBe(404);
  });
});
