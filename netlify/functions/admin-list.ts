import type { Config } from '@netlify/functions';
import { decodeCursor } from '../../src/server/admin/cursor.ts';
import { listLeads } from '../../src/server/admin/leads.ts';
import { adminLeadHandler } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** GET /api/admin/{kind}?cursor=&limit=: one page of leads, newest first, with the total. */
export default logged(
  'admin-list',
  adminLeadHandler('GET', async ({ request, db, kind }) => {
    const params = new URL(request.url).searchParams;
    const cursor = decodeCursor(params.get('cursor'));
    const limit = Number(params.get('limit') ?? PAGE_SIZE);
    if (cursor === 'invalid' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      return jsonError(400, 'Parámetros de paginación no válidos.');
    }
    return json(200, await listLeads(db, kind, cursor, limit));
  }),
);

export const config: Config = {
  path: '/api/admin/:kind',
  excludedPath: [
    '/api/admin/contacts',
    '/api/admin/metrics',
    '/api/admin/notifications',
    '/api/admin/team',
    '/api/admin/activity',
    '/api/admin/calls',
  ],
};
