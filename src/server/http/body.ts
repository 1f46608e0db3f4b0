import { jsonError } from './responses.ts';

/** Largest request body a form may send. */
export const MAX_BODY_BYTES = 16 * 1024;

const TOO_LARGE = 'La solicitud es demasiado grande.';

/**
 * Reads a JSON object body: 415 when it is not JSON, 413 over `limit` (16 KB,
 * a form's), 400 when it does not parse or is not an object.
 */
export async function readJsonObject(
  request: Request,
  limit = MAX_BODY_BYTES,
): Promise<Record<string, unknown> | Response> {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return jsonError(415, 'Envía los datos como JSON (Content-Type: application/json).');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return jsonError(413, TOO_LARGE);

  const bytes = await readAtMost(request, limit);
  if (!bytes) return jsonError(413, TOO_LARGE);

  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return jsonError(400, 'Los datos enviados no son JSON válido.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return jsonError(400, 'Envía un objeto JSON con los campos del formulario.');
  }
  return value as Record<string, unknown>;
}

/** The body's bytes, or null once it passes `limit` (the rest is not read). */
async function readAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
