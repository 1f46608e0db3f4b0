import type { Config } from '@netlify/functions';
import { CALL_KIND } from '../../src/lib/voice/calls.ts';
import { decodeCursor } from '../../src/server/admin/cursor.ts';
import { adminEndpoint, uuidSegment } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { deliveriesOfLeads } from '../../src/server/notifications/admin.ts';
import { getCall, listCalls } from '../../src/server/voice/call-store.ts';

const NOT_FOUND = 'No encontramos esta llamada.';

/**
 * The voice calls (administrators and advisers, like contacts):
 * GET /api/admin/calls?cursor=: newest first, 50 a page.
 * GET /api/admin/calls/{id}: one call with its conversation, and its notifications.
 */
export default logged(
  'admin-calls',
  adminEndpoint(
    'admin-calls',
    ['GET'],
    async ({ db, url }) => {
      if (url.pathname === '/api/admin/calls') {
        const cursor = decodeCursor(url.searchParams.get('cursor') || null);
        if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
        return json(200, await listCalls(db, cursor));
      }
      const id = uuidSegment(url, 0);
      const call = id ? await getCall(db, id) : null;
      if (!call) return jsonError(404, NOT_FOUND);
      const deliveries = await deliveriesOfLeads(db, CALL_KIND, [call.id]);
      return json(200, { ...call, deliveries: deliveries[call.id] ?? [] });
    },
    'member',
  ),
);

export const config: Config = {
  path: ['/api/admin/calls', '/api/admin/calls/:id'],
  excludedPath: '/api/admin/calls/export.csv',
};
