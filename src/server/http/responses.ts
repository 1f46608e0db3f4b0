import { API_HEADERS } from './headers.ts';

/** The 503's text when the database is down. */
export const DATABASE_DOWN = 'No se pudo conectar con la base de datos. Intenta de nuevo en unos minutos.';

/** A JSON answer with the API's headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...API_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** An error answer: `{ error, fields? }` with a Spanish message for the visitor. */
export function jsonError(
  status: number,
  error: string,
  extra: { fields?: Record<string, string>; code?: string } = {},
): Response {
  return json(status, { error, ...extra });
}

export function methodNotAllowed(allowed: readonly string[]): Response {
  return json(405, { error: 'Método no permitido.' }, { Allow: allowed.join(', ') });
}

/** An empty answer with the API's headers (e.g. 204). */
export function empty(status: number): Response {
  return new Response(null, { status, headers: API_HEADERS });
}
