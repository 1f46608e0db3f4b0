import type { Queryable } from '../db/database.ts';
import { jsonError } from '../http/responses.ts';
import { readSessionCookie, verifySession } from './session.ts';
import { findSessionUser, type SessionMember } from './users.ts';

export const SESSION_EXPIRED = 'Tu sesión expiró. Inicia sesión de nuevo.';
export const NOT_ADMIN = 'No tienes permisos para acceder al panel de administración';
export const ADMIN_ONLY = 'Solo un administrador puede hacer esto.';
export const PASSKEY_REQUIRED =
  'Tu equipo exige que los administradores entren con una llave de acceso. Agrégala en «Mi cuenta» y vuelve a entrar con ella.';

/** A signed-in member and the session the request came with. */
export type SignedIn = SessionMember & { sessionId: string };

/** The signed-in user of this request, or the 401 to answer. */
export async function requireUser(request: Request, db: Queryable): Promise<SignedIn | Response> {
  const token = readSessionCookie(request);
  const claims = token ? await verifySession(token) : null;
  const user = claims ? await findSessionUser(db, claims.sessionId, claims.userId) : null;
  return user && claims ? { ...user, sessionId: claims.sessionId } : jsonError(401, SESSION_EXPIRED);
}

/**
 * A member working on their own account (password, passkeys): a session with
 * a role in the team. An administrator who must still sign in with a passkey
 * gets here, to add one.
 */
export async function requireAccount(request: Request, db: Queryable): Promise<SignedIn | Response> {
  const user = await requireUser(request, db);
  if (user instanceof Response) return user;
  return user.role ? user : jsonError(403, NOT_ADMIN);
}

/**
 * A member of the team (administrator or adviser) at work, or the 401 / 403
 * to answer (403 too for an administrator who must still sign in with a passkey).
 */
export async function requireMember(request: Request, db: Queryable): Promise<SignedIn | Response> {
  const user = await requireAccount(request, db);
  if (user instanceof Response) return user;
  return user.passkeyPending ? jsonError(403, PASSKEY_REQUIRED, { code: 'passkey_required' }) : user;
}

/** The signed-in administrator, or the 401 (no valid session) / 403 (an adviser, no role, a passkey still due) to answer. */
export async function requireAdmin(request: Request, db: Queryable): Promise<SignedIn | Response> {
  const user = await requireMember(request, db);
  if (user instanceof Response) return user;
  return user.admin ? user : jsonError(403, ADMIN_ONLY);
}

/** A request that changes state must come from our own pages (CSRF). */
export function refuseCrossOrigin(request: Request): Response | null {
  const origin = request.headers.get('origin');
  return origin === new URL(request.url).origin ? null : jsonError(403, 'Solicitud rechazada: origen no permitido.');
}
