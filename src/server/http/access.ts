import {
  type Access,
  ADMIN_ONLY,
  isRefusal,
  NOT_ADMIN,
  PASSKEY_REQUIRED,
  type Refusal,
  SESSION_EXPIRED,
  type SignedIn,
  signedIn,
} from '../auth/guard.ts';
import type { Queryable } from '../db/database.ts';
import { jsonError } from './responses.ts';

/** The answer to a refused request: 401 without a valid session, 403 otherwise. */
export function refusalAnswer(refusal: Refusal): Response {
  switch (refusal) {
    case 'signed_out':
      return jsonError(401, SESSION_EXPIRED);
    case 'no_role':
      return jsonError(403, NOT_ADMIN);
    case 'passkey_required':
      return jsonError(403, PASSKEY_REQUIRED, { code: 'passkey_required' });
    case 'admin_only':
      return jsonError(403, ADMIN_ONLY);
  }
}

/** The member `access` admits, or the 401 / 403 to answer (for handlers that keep a database open). */
export async function admitted(request: Request, db: Queryable, access: Access): Promise<SignedIn | Response> {
  const user = await signedIn(request, db, access);
  return isRefusal(user) ? refusalAnswer(user) : user;
}

/** A request that changes state must come from our own pages (CSRF). */
export function refuseCrossOrigin(request: Request): Response | null {
  const origin = request.headers.get('origin');
  return origin === new URL(request.url).origin ? null : jsonError(403, 'Solicitud rechazada: origen no permitido.');
}
