import type { Config } from '@netlify/functions';
import { deleteLead } from '../../src/server/admin/leads.ts';
import { displayName } from '../../src/server/auth/users.ts';
import { adminLeadHandler } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** DELETE /api/admin/{kind}/{id}: deletes one lead (same-origin requests only). */
export default logged(
  'admin-delete',
  adminLeadHandler('DELETE', async ({ db, kind, rest: id, user }) => {
    if (!id || !UUID.test(id)) return jsonError(404, 'La solicitud no existe.');
    const actor = { id: user.id, name: displayName(user) };
    if (!(await deleteLead(db, kind, id, actor))) return jsonError(404, 'La solicitud no existe.');
    return empty(204);
  }),
);

export const config: Config = {
  path: '/api/admin/:kind/:id',
  excludedPath: [
    '/api/admin/:kind/export.csv',
    '/api/admin/contacts/*',
    '/api/admin/notifications/*',
    '/api/admin/team/*',
    '/api/admin/calls/*',
  ],
};
