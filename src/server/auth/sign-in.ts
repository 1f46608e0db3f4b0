import { recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { SESSION_HOURS, sessionCookie, signSession } from './session-token.ts';
import { displayName, openSession, type SessionUser, type SignInMethod } from './users.ts';

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

/** A member's successful sign-in in the activity log (its session, opened by signIn, is the "Último acceso"). */
export async function recordSignIn(db: Database, user: SessionUser, method: SignInMethod, ip: string): Promise<void> {
  const name = displayName(user);
  await recordActivity(db, {
    actor: { id: user.id, name },
    kind: 'sign_in',
    summary: method === 'passkey' ? `${name} inició sesión con una llave de acceso` : `${name} inició sesión`,
    ip,
  });
}
