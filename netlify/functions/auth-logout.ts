import type { Config } from '@netlify/functions';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import { readSessionCookie, sessionCookie, verifySession } from '../../src/server/auth/session.ts';
import { revokeSession } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { logged } from '../../src/server/http/logging.ts';
import { jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';

/** POST /api/auth/logout: ends the session on the server and forgets the cookie. */
export default logged('auth-logout', async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const token = readSessionCookie(request);
  const claims = token ? await verifySession(token) : null;
  if (claims) {
    try {
      await withDatabase((db) => revokeSession(db, claims.sessionId));
    } catch (error) {
      // The session must end: when it cannot be revoked now, say so rather than pretend.
      logJson('error', { function: 'auth', event: 'logout', error: (error as Error).message });
      return jsonError(503, DATABASE_DOWN);
    }
  }
  return new Response(null, { status: 204, headers: { ...API_HEADERS, 'Set-Cookie': sessionCookie(request, null) } });
});

export const config: Config = { path: '/api/auth/logout' };
