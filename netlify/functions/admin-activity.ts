import type { Config } from '@netlify/functions';
import { activityFilterSchema } from '../../src/lib/admin/team.ts';
import { listActivity } from '../../src/server/audit/activity.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/activity?actor=&kind=&cursor=: the activity log, newest
 * first (administrators only). There is no way to change it: the endpoint
 * only reads, and the table refuses updates and deletes.
 */
export default endpoints('admin-activity', [
  {
    method: 'GET',
    path: '/api/admin/activity',
    access: 'admin',
    async work({ db, url }) {
      const parsed = activityFilterSchema.safeParse(
        Object.fromEntries([...url.searchParams].filter(([, value]) => value !== '')),
      );
      if (!parsed.success) return jsonError(400, 'Filtros no válidos.');
      const page = await listActivity(db, parsed.data);
      if (page === 'invalid-cursor') return jsonError(400, 'Parámetros de paginación no válidos.');
      return json(200, page);
    },
  },
]);

export const config: Config = { path: '/api/admin/activity' };
