import type { Config } from '@netlify/functions';
import { isRefusal, signedIn } from '../../src/server/auth/guard.ts';
import { sessionAnswer } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';

/** GET /api/auth/session: the signed-in member (null when nobody is), their role, and whether they are an administrator. */
export default endpoints('auth-session', [
  {
    method: 'GET',
    path: '/api/auth/session',
    access: 'public',
    work: ({ request, database }) =>
      database(async (db) => {
        const user = await signedIn(request, db, 'user');
        return json(200, isRefusal(user) ? { user: null, admin: false } : sessionAnswer(user));
      }),
  },
]);

export const config: Config = { path: '/api/auth/session' };
