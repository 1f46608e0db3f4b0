import type { Queryable } from '../db/database.ts';
import { SESSION_HOURS, sessionCookie, signSession } from './session.ts';
import { openSession, type SessionUser, type SignInMethod } from './users.ts';

/** Opens a server-side session for `user` and returns the `Set-Cookie` value that carries it. */
export async function signIn(
  db: Queryable,
  request: Request,
  user: SessionUser,
  method: SignInMethod = 'password',
): Promise<string> {
  const sessionId = await openSession(db, user.id, SESSION_HOURS, method);
  const token = await signSession({ sessionId, userId: user.id, email: user.email });
  return sessionCookie(request, token);
}
