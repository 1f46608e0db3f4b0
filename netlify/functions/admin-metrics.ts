import type { Config } from '@netlify/functions';
import { currentMetrics } from '../../src/server/contacts/metrics.ts';
import { adminEndpoint } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/metrics: leads per week, response time, share contacted within
 * 24 h, campaigns and forms; computed for each request (concurrent ones share one computation).
 */
export default logged(
  'admin-metrics',
  adminEndpoint('admin-metrics', ['GET'], async ({ db }) => json(200, await currentMetrics(db)), 'member'),
);

export const config: Config = { path: '/api/admin/metrics' };
