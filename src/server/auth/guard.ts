import type { Queryable } from '../db/database.ts';
import { jsonError } from '../http/responses.ts';
import { readSessionCookie, verifySession } from './session.ts';
import { findSessionUser, type SessionUser } from './users.ts';

export const SESSION_EXPIRED = 'Tu sesión expiró. Inicia sesión de nuevo.';
export const NOT_ADMIN = 'No tienes permisos para acceder al panel de administración';

/** The signed-in user of this request, or the 401 to answer. */
export async function requireUser(request: Request, db: Queryable): Promise<SessionUser | Response> {
  const token = readSessionCookie(request);
  const claims = token ? await verifySession(token) : null;
  const user = claims ? await findSessionUser(db, claims.sessionId, claims.userId) : null;
  return user ?? jsonError(401, SESSION_EXPIRED);
}

/** The signed-in administrator, or the 401 (no valid session) / 403 (no admin role) to answer. */
export async function requireAdmin(request: Request, db: Queryable): Promise<SessionUser | Response> {
  const user = await requireUser(request, db);
  if (user instanceof Response) return user;
  return user.admin ? user : jsonError(403, NOT_ADMIN);
}

/** A request that changes state must come from our own pages (CSRF). */
export function refuseCrossOrigin(request: Request): Response | null {
  const origin = request.headers.get('origin');
  return origin === new URL(request.url).origin ? null : jsonError(403, 'Solicitud rechazada: origen no permitido.');
}
