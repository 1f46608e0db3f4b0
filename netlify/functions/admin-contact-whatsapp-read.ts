import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';
import { markRead } from '../../src/server/whatsapp/inbox.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * POST /api/admin/contacts/{id}/whatsapp/read (members): 204. The conversation is read for the
 * whole team (unread 0, who and when), sent by the contact's page as it shows the messages.
 */
export default endpoints('admin-contact-whatsapp-read', [
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/whatsapp/read',
    access: 'member',
    async work({ db, params, user }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      return (await markRead(db, params.id, user.id)) ? empty(204) : jsonError(404, NOT_FOUND);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts/:id/whatsapp/read' };
