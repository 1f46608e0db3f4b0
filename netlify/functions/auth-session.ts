import type { Config } from '@netlify/functions';
import { requireUser } from '../../src/server/auth/guard.ts';
import { sessionAnswer } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';

/** GET /api/auth/session: the signed-in member (null when nobody is), their role, and whether they are an administrator. */
export default logged('auth-session', async (request: Request): Promise<Response> => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  try {
    return await withDatabase(async (db) => {
      const user = await requireUser(request, db);
      if (user instanceof Response) return json(200, { user: null, admin: false });
      return json(200, sessionAnswer(user));
    });
  } catch (error) {
    logJson('error', { function: 'auth', event: 'session', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = { path: '/api/auth/session' };
