import type { Config } from '@netlify/functions';
import { contactFilterSchema } from '../../src/lib/admin/contacts.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { decodeContactCursor, listContacts } from '../../src/server/contacts/list.ts';
import { adminEndpoint } from '../../src/server/http/admin-handler.ts';
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
  adminEndpoint('admin-contacts', ['GET'], async ({ db, url }) => {
    const params = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ''));
    const { cursor: rawCursor, limit: rawLimit, ...filters } = params;
    const filter = contactFilterSchema.safeParse(filters);
    if (!filter.success) return jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(filter.error) });
    const cursor = decodeContactCursor(rawCursor ?? null);
    const limit = Number(rawLimit ?? PAGE_SIZE);
    if (cursor === 'invalid' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      return jsonError(400, 'Parámetros de paginación no válidos.');
    }
    return json(200, await listContacts(db, filter.data, cursor, limit));
  }),
);

export const config: Config = { path: '/api/admin/contacts' };
