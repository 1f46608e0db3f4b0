import type { Config } from '@netlify/functions';
import { decodeCursor } from '../../src/server/admin/cursor.ts';
import { listContacts } from '../../src/server/contacts/list.ts';
import { adminEndpoint } from '../../src/server/http/admin-handler.ts';
import { contactFilterFrom } from '../../src/server/http/contact-filter.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/**
 * GET /api/admin/contacts?q=&state=&kind=&form=&campaign=&from=&to=&cursor=&limit=:
 * contacts, newest activity first, with the total and the counts per state.
 */
export default logged(
  'admin-contacts',
  adminEndpoint(
    'admin-contacts',
    ['GET'],
    async ({ db, url, user }) => {
      const filter = contactFilterFrom(url, user.id);
      const cursor = decodeCursor(url.searchParams.get('cursor') || null);
      const limit = Number(url.searchParams.get('limit') || PAGE_SIZE);
      if (cursor === 'invalid' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
        return jsonError(400, 'Parámetros de paginación no válidos.');
      }
      return json(200, await listContacts(db, filter, cursor, limit));
    },
    'member',
  ),
);

export const config: Config = { path: '/api/admin/contacts' };
