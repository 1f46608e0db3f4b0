import type { Config } from '@netlify/functions';
import { captureSchema } from '../../src/lib/admin/contact-work.ts';
import { displayName } from '../../src/server/auth/users.ts';
import { captureLead } from '../../src/server/contacts/capture.ts';
import { listContacts } from '../../src/server/contacts/list.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { contactFilterFrom } from '../../src/server/http/contact-filter.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/**
 * GET /api/admin/contacts?q=&state=&kind=&form=&campaign=&from=&to=&cursor=&limit=:
 * contacts, newest activity first, with the total and the counts per state.
 * POST /api/admin/contacts {name, phone, email?, origin, note?}: a lead typed in by a member
 * ("Nuevo prospecto"): 201 {id, created: true}, or 200 {id, created: false} when the phone is a
 * contact's already (that contact is brought up to date; never a second one).
 */
export default endpoints('admin-contacts', [
  {
    method: 'GET',
    path: '/api/admin/contacts',
    access: 'member',
    async work({ db, url, user }) {
      const filter = contactFilterFrom(url, user.id);
      const cursor = decodeCursor(url.searchParams.get('cursor') || null);
      const limit = Number(url.searchParams.get('limit') || PAGE_SIZE);
      if (cursor === 'invalid' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
        return jsonError(400, 'Parámetros de paginación no válidos.');
      }
      return json(200, await listContacts(db, filter, cursor, limit));
    },
  },
  {
    method: 'POST',
    path: '/api/admin/contacts',
    access: 'member',
    async work({ db, user, body }) {
      const capture = await body(captureSchema, 'Revisa los datos del prospecto.');
      const answer = await captureLead(db, capture, { id: user.id, name: displayName(user), admin: user.admin });
      return json(answer.created ? 201 : 200, answer);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts' };
