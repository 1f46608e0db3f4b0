import type { Config } from '@netlify/functions';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import { sessionCookie } from '../../src/server/auth/session.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { logged } from '../../src/server/http/logging.ts';
import { methodNotAllowed } from '../../src/server/http/responses.ts';

/** POST /api/auth/logout: forgets the session cookie. */
export default logged('auth-logout', async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  return new Response(null, { status: 204, headers: { ...API_HEADERS, 'Set-Cookie': sessionCookie(request, null) } });
});

export const config: Config = { path: '/api/auth/logout' };
