import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';

const report = z.object({
  path: z.string().max(2000),
  referrer: z.string().max(2000).nullish(),
});

/** POST /api/not-found: the 404 page reports the address a visitor could not find. */
export default endpoints(
  'not-found',
  [
    {
      method: 'POST',
      path: '/api/not-found',
      access: 'public',
      async work({ body }) {
        const { path, referrer } = await body(report, () => jsonError(400, 'Reporte no válido.'));
        logJson('warn', { event: 'not_found', path, referrer: referrer ?? null });
        return empty(204);
      },
    },
  ],
  // A page's beacon: nothing changes, and a report from elsewhere is only a log line.
  { sameOrigin: false },
);

export const config: Config = {
  path: '/api/not-found',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
