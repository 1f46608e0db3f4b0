import type { Queryable } from '../db/database.ts';
import { readSessionCookie, verifySession } from './session-token.ts';
import { findSessionUser, type SessionMember } from './users.ts';

export const SESSION_EXPIRED = 'Tu sesión expiró. Inicia sesión de nuevo.';
export const NOT_ADMIN = 'No tienes permisos para acceder al panel de administración';
export const ADMIN_ONLY = 'Solo un administrador puede hacer esto.';
export const PASSKEY_REQUIRED =
  'Tu equipo exige que los administradores entren con una llave de acceso. Agrégala en «Mi cuenta» y vuelve a entrar con ella.';

/** A signed-in member and the session the request came with. */
export type SignedIn = SessionMember & { sessionId: string };

/**
 * Who may do something:
 * `user`: anyone signed in;
 * `account`: a member working on their own account (password, passkeys), a
 *   role in the team; an administrator who must still sign in with a passkey
 *   gets here, to add one;
 * `member`: a member of the team (administrator or adviser) at work;
 * `admin`: an administrator at work.
 */
export type Access = 'user' | 'account' | 'member' | 'admin';

/**
 * Why a request is refused: no valid session (`signed_out`), no role in the
 * team (`no_role`), an administrator who must still sign in with a passkey
 * (`passkey_required`), an adviser where only administrators may go
 * (`admin_only`). The HTTP layer answers 401 for the first, 403 for the others.
 */
export type Refusal = 'signed_out' | 'no_role' | 'passkey_required' | 'admin_only';

/** The signed-in member of this request when `access` admits them, or why not. */
export async function signedIn(request: Request, db: Queryable, access: Access): Promise<SignedIn | Refusal> {
  const token = readSessionCookie(request);
  const claims = token ? await verifySession(token) : null;
  const user = claims ? await findSessionUser(db, claims.sessionId, claims.userId) : null;
  if (!user || !claims) return 'signed_out';
  if (access === 'user') return { ...user, sessionId: claims.sessionId };
  if (!user.role) return 'no_role';
  if (access === 'account') return { ...user, sessionId: claims.sessionId };
  if (user.passkeyPending) return 'passkey_required';
  if (access === 'admin' && !user.admin) return 'admin_only';
  return { ...user, sessionId: claims.sessionId };
}

export function isRefusal(value: SignedIn | Refusal): value is Refusal {
  return typeof value === 'string';
}
