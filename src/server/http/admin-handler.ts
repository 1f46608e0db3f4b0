import { LEAD_KINDS, type LeadKind } from '../../lib/admin/columns.ts';
import { refuseCrossOrigin, requireAdmin } from '../auth/guard.ts';
import type { SessionUser } from '../auth/users.ts';
import { type Database, withDatabase } from '../db/database.ts';
import type { Handler } from './lead-handler.ts';
import { logJson } from './logging.ts';
import { jsonError, methodNotAllowed } from './responses.ts';

export const DATABASE_DOWN = 'No se pudo conectar con la base de datos. Intenta de nuevo en unos minutos.';

interface AdminRequest {
  request: Request;
  db: Database;
  user: SessionUser;
  kind: LeadKind;
  /** The path segment after the kind (a lead's id), if any. */
  rest: string | undefined;
}

const PATH = /^\/api\/admin\/([a-z-]+)(?:\/([^/]+))?$/;

/**
 * An administrator's endpoint on one kind of lead: method, admin session,
 * same origin for changes, then the work; 503 when the database is down.
 */
export function adminLeadHandler(
  method: 'GET' | 'DELETE',
  work: (request: AdminRequest) => Promise<Response>,
): Handler {
  return async (request) => {
    if (request.method !== method) return methodNotAllowed([method]);
    const [, kind, rest] = PATH.exec(new URL(request.url).pathname) ?? [];
    if (!LEAD_KINDS.includes(kind as LeadKind)) return jsonError(404, 'Tipo de solicitud desconocido.');
    if (method !== 'GET') {
      const refused = refuseCrossOrigin(request);
      if (refused) return refused;
    }
    try {
      return await withDatabase(async (db) => {
        const user = await requireAdmin(request, db);
        if (user instanceof Response) return user;
        return work({ request, db, user, kind: kind as LeadKind, rest });
      });
    } catch (error) {
      logJson('error', { function: 'admin', path: new URL(request.url).pathname, error: (error as Error).message });
      return jsonError(503, DATABASE_DOWN);
    }
  };
}
