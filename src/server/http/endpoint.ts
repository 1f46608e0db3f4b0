import { fieldMessages } from '../../lib/forms/errors.ts';
import type { Actor } from '../audit/activity.ts';
import { type Access, isRefusal, type SignedIn, signedIn } from '../auth/guard.ts';
import { PASSWORDS_BUSY, PasswordsBusy } from '../auth/passwords.ts';
import { displayName } from '../auth/users.ts';
import { type Database, withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { refusalAnswer, refuseCrossOrigin } from './access.ts';
import { readJsonObject } from './body.ts';
import { requestAddress } from './client-address.ts';
import type { Handler, RequestContext } from './handler.ts';
import { logged } from './logging.ts';
import { DATABASE_DOWN, json, jsonError, methodNotAllowed } from './responses.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type Issues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
/** A zod schema, classic or mini. */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: Issues };
}

/**
 * An answer decided before the work is done (a body that does not parse, a
 * refused session): thrown by the call's helpers, answered by the wrapper, so
 * a function reads straight through instead of checking for Responses.
 */
export class Answered extends Error {
  override name = 'Answered';
  readonly response: Response;
  constructor(response: Response) {
    super(`answered ${response.status}`);
    this.response = response;
  }
}

/** What every route's work gets. */
export interface Call {
  request: Request;
  url: URL;
  /** The path's named segments (`:id`), as sent. */
  params: Readonly<Record<string, string>>;
  /** The platform's context (Netlify's `waitUntil` for work after the answer). */
  context: RequestContext;
  /** The client's address, checked. */
  ip: string;
  /**
   * The JSON body checked by `schema`: 415 / 413 / 400 when it is not a JSON
   * object within `limit`, and `invalid` when the schema refuses it (a
   * Spanish 400 with the fields' messages, or the answer the function builds).
   */
  body<T>(
    schema: Schema<T>,
    invalid: string | ((fields: Record<string, string>) => Response),
    limit?: number,
  ): Promise<T>;
  /** The JSON object sent (415 / 413 / 400 otherwise), for a function that reads it its own way. */
  jsonObject(limit?: number): Promise<Record<string, unknown>>;
}

/** A public route's call: the database is opened when the work asks (cheap checks first). */
export interface PublicCall extends Call {
  database<T>(work: (db: Database) => Promise<T>): Promise<T>;
  /** The signed-in member `access` admits, or the 401 / 403 is answered. */
  member(db: Database, access: Access): Promise<SignedIn>;
}

/** A signed-in route's call: its database, its member and how the records name them. */
export interface MemberCall extends Call {
  db: Database;
  user: SignedIn;
  actor: Actor;
}

export type Route =
  | { method: Method; path: string; access: 'public'; work(call: PublicCall): Promise<Response> }
  | { method: Method; path: string; access: Access; work(call: MemberCall): Promise<Response> };

export interface EndpointOptions {
  /** Writes must come from our own pages (default); false for a platform's webhook that proves itself otherwise. */
  sameOrigin?: boolean;
  /** The 503's text when the database is down. */
  unavailable?: string;
}

/** `/api/x/:id` or `/api/x/:id(regex)` as a RegExp with named groups (the syntax of `config.path`). */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)(?:\((.+)\))?$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return `(?<${param[1]}>${param[2] ?? '[^/]+'})`;
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * A function's routes, each with its method, its explicit path (those of the
 * function's `config.path`) and who may call it: 405 with Allow for another
 * method on a known path; our own origin for every write (403); for a
 * signed-in route, the session (401 / 403, guard.ts) before the work; the
 * database down, or anything else thrown, is a logged 503 in Spanish; one log
 * line per call (logging.ts).
 */
export function endpoints(name: string, routes: readonly Route[], options: EndpointOptions = {}): Handler {
  return logged(name, routedHandler(name, routes, options));
}

/** `endpoints` without its log line, for wrappers whose callers log (adminEndpoint). */
export function routedHandler(name: string, routes: readonly Route[], options: EndpointOptions = {}): Handler {
  const compiled = routes.map((route) => ({ route, pattern: pathPattern(route.path) }));
  return async (request, context) => {
    const url = new URL(request.url);
    // Netlify also routes the path with a trailing slash.
    const pathname = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    const matching = compiled.filter(({ pattern }) => pattern.test(pathname));
    if (matching.length === 0) return jsonError(404, 'No encontramos esta dirección.');
    const found = matching.find(({ route }) => route.method === request.method);
    if (!found) return methodNotAllowed([...new Set(matching.map(({ route }) => route.method))]);
    if (request.method !== 'GET' && options.sameOrigin !== false) {
      const refused = refuseCrossOrigin(request);
      if (refused) return refused;
    }
    const params = { ...found.pattern.exec(pathname)?.groups };
    const call: Call = { request, url, params, context, ip: requestAddress(context), ...bodyReaders(request) };
    try {
      const { route } = found;
      if (route.access === 'public') {
        return await route.work({ ...call, database: (work) => withDatabase(work), member: admit(request) });
      }
      return await withDatabase(async (db) => {
        const user = await admit(request)(db, route.access);
        return route.work({ ...call, db, user, actor: { id: user.id, name: displayName(user) } });
      });
    } catch (error) {
      if (error instanceof Answered) return error.response;
      if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
      logJson('error', { function: name, path: url.pathname, error: (error as Error).message });
      return jsonError(503, options.unavailable ?? DATABASE_DOWN);
    }
  };
}

function admit(request: Request) {
  return async (db: Database, access: Access): Promise<SignedIn> => {
    const user = await signedIn(request, db, access);
    if (isRefusal(user)) throw new Answered(refusalAnswer(user));
    return user;
  };
}

/** A request's JSON body readers: each answers (throws Answered) instead of returning a Response. */
export function bodyReaders(request: Request): Pick<Call, 'jsonObject' | 'body'> {
  let read: Promise<Record<string, unknown> | Response> | undefined;
  const jsonObject = async (limit?: number) => {
    // Read once: a function may look at the object before checking it.
    read ??= readJsonObject(request, limit);
    const body = await read;
    if (body instanceof Response) throw new Answered(body);
    return body;
  };
  return { jsonObject, body: checked(jsonObject) };
}

function checked(jsonObject: Call['jsonObject']): Call['body'] {
  return async (schema, invalid, limit) => {
    const parsed = schema.safeParse(await jsonObject(limit));
    if (parsed.success) return parsed.data;
    const fields = fieldMessages(parsed.error);
    throw new Answered(typeof invalid === 'string' ? jsonError(400, invalid, { fields }) : invalid(fields));
  };
}
