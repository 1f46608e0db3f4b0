/**
 * The panel's one fetcher: JSON in and out, same-origin cookies. A 401 means
 * the session is gone: where the page has a sign-in dialog (`onSessionLost`,
 * the panel's pages), the call waits while the member signs in again in
 * place and is then sent again, so an unsaved change is not lost (issue #26,
 * item 8); a page without one goes to /auth and the call never settles (no
 * error flashes while the browser leaves). Every other failure is an
 * `ApiError` whose message is Spanish and fit for a visitor. No TanStack
 * import here: the sign-in pages use this too and stay light.
 */
export const SIGN_IN_PAGE = '/auth';
export const OFFLINE = 'Revisa tu conexión e intenta de nuevo.';
export const FORBIDDEN = 'No tienes permiso para ver o cambiar esto. Pide acceso a un administrador.';
export const CHANGED_MEANWHILE = 'Alguien cambió esto mientras lo veías. Recarga para ver los cambios.';
/** A call whose session ended, when the member chose not to sign in again: nothing was saved, the form keeps it. */
export const SESSION_LOST = 'Tu sesión terminó y no se guardó el cambio. Vuelve a entrar para guardarlo.';

/** Signs the member in again in place: true once signed in (as the same member), false if they gave up. */
export type SessionRecovery = () => Promise<boolean>;
let recovery: SessionRecovery | null = null;
/** One sign-in for every call refused meanwhile. */
let recovering: Promise<boolean> | null = null;

/** The page's way to sign in again in place (the panel's dialog); returns its removal. */
export function onSessionLost(handler: SessionRecovery): () => void {
  recovery = handler;
  return () => {
    if (recovery === handler) recovery = null;
  };
}

/** What our endpoints answer on a refusal. */
export interface ErrorBody {
  error?: string;
  code?: string;
  fields?: Record<string, string>;
}

export class ApiError extends Error {
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(explain({ status, body }));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** The server's own words when it gave some, else what the status means, else `fallback`. */
export function explain(error: unknown, fallback = OFFLINE): string {
  if (!error || typeof error !== 'object' || !('status' in error) || !('body' in error)) return fallback;
  const { status, body } = error as { status: number; body: ErrorBody };
  return body.error ?? (status === 403 ? FORBIDDEN : status === 409 ? CHANGED_MEANWHILE : fallback);
}

/** The field messages of a 400, if the server sent them. */
export const fieldErrors = (error: unknown): Record<string, string> | undefined =>
  error instanceof ApiError ? error.body.fields : undefined;

export function goTo(path: string): void {
  window.location.assign(path);
}

export interface ApiInit extends Omit<RequestInit, 'body'> {
  /** A JSON body. */
  json?: unknown;
  /** Pages for people without a session (sign-in, recovery): a 401 is an answer to show, not a lost session. */
  anonymous?: boolean;
}

export async function api<T>(path: string, { json, anonymous = false, ...init }: ApiInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: { 'Content-Type': 'application/json', ...init.headers },
      credentials: 'same-origin',
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  } catch {
    throw new ApiError(0, {});
  }
  const body = (response.status === 204 ? {} : await response.json().catch(() => ({}))) as T & ErrorBody;
  if (response.ok) return body;
  if (response.status === 401 && !anonymous) {
    if (recovery) {
      recovering ??= recovery().finally(() => {
        recovering = null;
      });
      if (await recovering) return api<T>(path, { ...init, json, anonymous });
      throw new ApiError(401, { error: SESSION_LOST });
    }
    goTo(SIGN_IN_PAGE);
    return new Promise<never>(() => {});
  }
  throw new ApiError(response.status, body);
}
