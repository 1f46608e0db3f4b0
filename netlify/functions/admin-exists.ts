import type { Config } from '@netlify/functions';
import { adminExists } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';

/** GET /api/admin-exists: whether the one-time setup has been done. */
export default logged('admin-exists', async (request: Request): Promise<Response> => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  try {
    return json(200, { exists: await withDatabase(adminExists) });
  } catch (error) {
    logJson('error', { function: 'auth', event: 'admin-exists', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = { path: '/api/admin-exists' };
