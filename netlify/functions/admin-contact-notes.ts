import type { Config } from '@netlify/functions';
import { NOTE_NOT_YOURS, noteSchema } from '../../src/lib/admin/contacts.ts';
import { addNote, deleteNote } from '../../src/server/contacts/change.ts';
import { uuidSegment } from '../../src/server/http/admin-handler.ts';
import { endpoints, type MemberCall } from '../../src/server/http/endpoint.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/** A route's `work` on the contact of the path (/api/admin/contacts/{id}/…): 404 when the id is not a UUID. */
const onContact =
  (work: (call: MemberCall, contactId: string) => Promise<Response>) =>
  async (call: MemberCall): Promise<Response> => {
    const contactId = uuidSegment(call.url, 0);
    return contactId ? work(call, contactId) : jsonError(404, NOT_FOUND);
  };

/**
 * POST /api/admin/contacts/{id}/notes {body}: 201 {id}.
 * DELETE /api/admin/contacts/{id}/notes/{noteId}: 204, recorded in the history and the activity log;
 * 403 for an adviser and someone else's note (an administrator deletes any).
 */
export default endpoints('admin-contact-notes', [
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/notes',
    access: 'member',
    work: onContact(async ({ db, actor, body }, contactId) => {
      const note = await body(noteSchema, 'Revisa la nota.');
      const id = await addNote(db, contactId, note.body, actor);
      return id ? json(201, { id }) : jsonError(404, NOT_FOUND);
    }),
  },
  {
    method: 'DELETE',
    path: '/api/admin/contacts/:id/notes/:noteId',
    access: 'member',
    work: onContact(async ({ db, url, user, actor }, contactId) => {
      const noteId = uuidSegment(url, 2);
      const deletion = noteId ? await deleteNote(db, contactId, noteId, { ...actor, admin: user.admin }) : 'not_found';
      if (deletion === 'not_yours') return jsonError(403, NOTE_NOT_YOURS);
      return deletion === 'deleted' ? empty(204) : jsonError(404, 'No encontramos esta nota.');
    }),
  },
]);

export const config: Config = {
  path: ['/api/admin/contacts/:id/notes', '/api/admin/contacts/:id/notes/:noteId'],
};
