import type { Config } from '@netlify/functions';
import { bulkChangeSchema } from '../../src/lib/admin/contact-bulk.ts';
import { bulkChange } from '../../src/server/contacts/claim.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * POST /api/admin/contacts-bulk {ids, state?, lostReason?, assignedTo?} (administrators): the
 * contacts selected in the list assigned, moved to a state, or both; each with its history and
 * activity entries, all in one transaction. 200 {changed, missing}.
 * (Not /api/admin/contacts/bulk: that path is a contact's, `/api/admin/contacts/:id`.)
 */
export default endpoints('admin-contacts-bulk', [
  {
    method: 'POST',
    path: '/api/admin/contacts-bulk',
    access: 'admin',
    async work({ db, actor, body }) {
      const change = await body(bulkChangeSchema, 'Revisa el cambio.');
      const result = await bulkChange(db, change, actor);
      if (result === 'no_member') {
        return jsonError(400, 'Revisa el cambio.', { fields: { assignedTo: 'Elige a un miembro activo del equipo.' } });
      }
      return json(200, result);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts-bulk' };
