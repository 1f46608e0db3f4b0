import { isUuid } from '../../lib/ids.ts';
import { isLeadKind, type LeadKind } from '../../lib/leads/kinds.ts';
import type { SignedIn } from '../auth/guard.ts';
import { type Database, openDatabase, withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { admitted, refuseCrossOrigin } from './access.ts';
import { Answered, bodyReaders, type Call } from './endpoint.ts';
import type { Handler, RequestContext } from './handler.ts';
import { DATABASE_DOWN, jsonError, methodNotAllowed } from './responses.ts';

export { DATABASE_DOWN };

interface AdminRequest {
  request: Request;
  db: Database;
  user: SignedIn;
  kind: LeadKind;
  /** The path segment after the kind (a lead's id), if any. */
  rest: string | undefined;
}

const PATH = /^\/api\/admin\/([a-z-]+)(?:\/([^/]+))?$/;

/**
 * An administrator's endpoint on one kind of lead (`/api/admin/{kind}/…`):
 * an unknown kind is a 404, the rest is adminEndpoint's story.
 */
export function adminLeadHandler(
  method: 'GET' | 'DELETE',
  work: (request: AdminRequest) => Promise<Response>,
): Handler {
  const endpoint = adminEndpoint('admin', [method], ({ request, db, user, url }) => {
    const [, kind, rest] = PATH.exec(url.pathname) ?? [];
    return work({ request, db, user, kind: kind as LeadKind, rest });
  });
  return async (request, context) => {
    const [, kind] = PATH.exec(new URL(request.url).pathname) ?? [];
    if (request.method === method && !isLeadKind(kind)) {
      return jsonError(404, 'Tipo de solicitud desconocido.');
    }
    return endpoint(request, context);
  };
}

export interface AdminEndpointRequest extends Pick<Call, 'jsonObject' | 'body'> {
  request: Request;
  db: Database;
  user: SignedIn;
  url: URL;
  /** The platform's context (Netlify's `waitUntil` for work after the answer). */
  context: RequestContext;
}

/**
 * Any administrator's endpoint: the method, an administrator's session (401 /
 * 403), our own origin for changes (403), then the work; 503 with a Spanish
 * message when the database is down.
 */
export function adminEndpoint(
  name: string,
  methods: readonly string[],
  work: (request: AdminEndpointRequest) => Promise<Response>,
  /** `member`: advisers too (working contacts); `admin` (the default): administrators only. */
  access: 'admin' | 'member' = 'admin',
): Handler {
  return async (request, context) => {
    if (!methods.includes(request.method)) return methodNotAllowed(methods);
    if (request.method !== 'GET') {
      const refused = refuseCrossOrigin(request);
      if (refused) return refused;
    }
    try {
      return await withDatabase(async (db) => {
        const user = await admitted(request, db, access);
        if (user instanceof Response) return user;
        return work({ request, db, user, url: new URL(request.url), context, ...bodyReaders(request) });
      });
    } catch (error) {
      if (error instanceof Answered) return error.response;
      logJson('error', { function: name, path: new URL(request.url).pathname, error: (error as Error).message });
      return jsonError(503, DATABASE_DOWN);
    }
  };
}

/** The path segment at `index` when it is a UUID (0 is the segment after /api/admin/contacts/). */
export function uuidSegment(url: URL, index: number): string | null {
  const segment = url.pathname.split('/').slice(4)[index];
  return isUuid(segment) ? segment : null;
}

/**
 * A database handle for an administrator's streamed answer (a CSV), kept open
 * after the handler returns: the 401 / 403 / 503 to answer instead, if any.
 * Call `release` when the stream ends.
 */
export async function openForAdmin(
  request: Request,
  name: string,
): Promise<{ db: Database; release(): Promise<void>; user: SignedIn } | Response> {
  try {
    const handle = await openDatabase();
    const user = await admitted(request, handle.db, 'admin');
    if (user instanceof Response) {
      await handle.release();
      return user;
    }
    return { ...handle, user };
  } catch (error) {
    logJson('error', { function: name, error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
}
