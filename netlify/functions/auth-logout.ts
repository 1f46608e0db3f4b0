import type { Config } from '@netlify/functions';
import { readSessionCookie, sessionCookie, verifySession } from '../../src/server/auth/session-token.ts';
import { revokeSession } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';

/** POST /api/auth/logout: ends the session on the server and forgets the cookie. */
export default endpoints('auth-logout', [
  {
    method: 'POST',
    path: '/api/auth/logout',
    access: 'public',
    async work({ request, database }) {
      const token = readSessionCookie(request);
      const claims = token ? await verifySession(token) : null;
      // The session must end: when it cannot be revoked now, the 503 says so rather than pretend.
      if (claims) await database((db) => revokeSession(db, claims.sessionId));
      return new Response(null, {
        status: 204,
        headers: { ...API_HEADERS, 'Set-Cookie': sessionCookie(request, null) },
      });
    },
  },
]);

export const config: Config = { path: '/api/auth/logout' };
