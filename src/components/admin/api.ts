/**
 * The panel's one fetcher: JSON in and out, same-origin cookies. A 401 means
 * the session is gone: the page goes to /auth and the call never settles (no
 * error flashes while the browser leaves). Every other failure is an
 * `ApiError` whose message is Spanish and fit for a visitor. No TanStack
 * import here: the sign-in pages use this too and stay light.
 */
export const SIGN_IN_PAGE = '/auth';
export const OFFLINE = 'Revisa tu conexión e intenta de nuevo.';
export const FORBIDDEN = 'No tienes permiso para ver o cambiar esto. Pide acceso a un administrador.';
export const CHANGED_MEANWHILE = 'Alguien cambió esto mientras lo veías. Recarga para ver los cambios.';

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
    goTo(SIGN_IN_PAGE);
    return new Promise<never>(() => {});
  }
  throw new ApiError(response.status, body);
}
