import { jsonError } from './responses.ts';

/** Largest request body a form may send. */
export const MAX_BODY_BYTES = 16 * 1024;

const TOO_LARGE = 'La solicitud es demasiado grande.';

/** What a `<form method="post">` sends when no script sends it (its enctypes). */
const BROWSER_FORMS = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
/** The page that tells the visitor their form was not sent (src/pages/solicitud-no-enviada.astro). */
export const NOT_SENT_PAGE = '/solicitud-no-enviada';

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
    // A form the browser sent by itself (pressed before its page's script loaded, or with it off): a page of the
    // site that says so and how to go back to what they typed, not this answer in JSON. Nothing is stored.
    if (BROWSER_FORMS.has(mediaType ?? '') && request.headers.get('accept')?.includes('text/html')) {
      return new Response(null, { status: 303, headers: { Location: NOT_SENT_PAGE, 'Cache-Control': 'no-store' } });
    }
    return jsonError(415, 'Envía los datos como JSON (Content-Type: application/json).');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return jsonError(413, TOO_LARGE);

  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(request, limit);
  } catch {
    // The connection closed before the body ended: nobody is left to read the answer, and nothing is stored.
    return jsonError(400, 'La solicitud llegó incompleta. Envíala de nuevo.');
  }
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

/** What srvx's Node adapter carries: the IncomingMessage under the Request. */
interface NodeBacked {
  runtime?: { node?: { req?: NodeJS.ReadableStream } };
}

/** The body's bytes, or null once it passes `limit` (the rest is not read). */
export async function readAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  const node = (request as NodeBacked).runtime?.node?.req;
  // On the local server: read the socket's chunks as they come, without a web stream over them
  // (issue #25: about a tenth of the server's CPU per lead). Elsewhere (Netlify), the web stream.
  if (node && !request.bodyUsed) return readNodeAtMost(node, limit);
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

function readNodeAtMost(stream: NodeJS.ReadableStream, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Uint8Array | null, error?: unknown) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        stream.pause();
        done(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    const onError = (error: unknown) => done(null, error);
    // The visitor went away before the body ended: the same as the web stream's error.
    const onClose = () => done(null, new Error('La conexión se cerró antes de recibir la solicitud.'));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
