import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { decodeCursor } from '../../src/server/admin/cursor.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { listMessages } from '../../src/server/whatsapp/inbox.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * GET /api/admin/contacts/{id}/whatsapp/messages?before= (members): `MessagePage`, the contact's
 * messages newest first, 50 a page; `before` is the previous page's `nextCursor` (decision 0039).
 */
export default endpoints('admin-contact-whatsapp-messages', [
  {
    method: 'GET',
    path: '/api/admin/contacts/:id/whatsapp/messages',
    access: 'member',
    async work({ db, url, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const cursor = decodeCursor(url.searchParams.get('before') || null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      const page = await listMessages(db, params.id, cursor);
      return page ? json(200, page) : jsonError(404, NOT_FOUND);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts/:id/whatsapp/messages' };
