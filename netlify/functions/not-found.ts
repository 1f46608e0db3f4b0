import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { readJsonObject } from '../../src/server/http/body.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';

const report = z.object({
  path: z.string().max(2000),
  referrer: z.string().max(2000).nullish(),
});

/** POST /api/not-found: the 404 page reports the address a visitor could not find. */
export default logged('not-found', async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const parsed = report.safeParse(body);
  if (!parsed.success) return jsonError(400, 'Reporte no válido.');
  logJson('warn', { event: 'not_found', path: parsed.data.path, referrer: parsed.data.referrer ?? null });
  return empty(204);
});

export const config: Config = {
  path: '/api/not-found',
  rateLimit: { windowLimit: 60, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
