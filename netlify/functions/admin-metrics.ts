import type { Config } from '@netlify/functions';
import { currentMetrics } from '../../src/server/contacts/metrics.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/metrics: leads per week, response time, share contacted within
 * 24 h, campaigns and forms; computed for each request (concurrent ones share one computation).
 */
export default endpoints('admin-metrics', [
  {
    method: 'GET',
    path: '/api/admin/metrics',
    access: 'member',
    work: async ({ db }) => json(200, await currentMetrics(db)),
  },
]);

export const config: Config = { path: '/api/admin/metrics' };
