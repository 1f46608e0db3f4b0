import { RETRYABLE_CODES } from '../../lib/whatsapp/errors.ts';
import type { WhatsappConfig } from '../config.ts';

/** Each call to the platform is bounded: a send that hangs is retried, never waited for. */
const TIMEOUT_MS = 15_000;

/** What the platform said to a send. */
export type SendResult =
  | { kind: 'accepted'; waMessageId: string }
  /** A refusal: `retry` for rate limits and outages (429, 5xx, their codes), never for another 4xx. */
  | { kind: 'refused'; code: number | null; title: string | null; status: number; retry: boolean }
  /** No answer (network, timeout): retried. */
  | { kind: 'unreachable'; error: string };

/**
 * POST {WHATSAPP_API_URL}/{phone-number-id}/messages with the request stored
 * on the message (Meta's "messages" endpoint): `{messages: [{id}]}` when
 * accepted, `{error: {code, message, error_data: {details}}}` when refused.
 */
export async function postMessage(config: WhatsappConfig, request: object): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}/${config.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: 'unreachable', error: (error as Error).message };
  }
  const answer = (await response.json().catch(() => null)) as {
    messages?: { id?: unknown }[];
    error?: { code?: unknown; message?: unknown; title?: unknown; error_data?: { details?: unknown } };
  } | null;
  const id = answer?.messages?.[0]?.id;
  if (response.ok && typeof id === 'string' && id !== '') return { kind: 'accepted', waMessageId: id };
  const code = typeof answer?.error?.code === 'number' ? answer.error.code : null;
  const title = [answer?.error?.message, answer?.error?.error_data?.details].filter((part) => typeof part === 'string');
  const retry =
    response.status === 429 || response.status >= 500 || (code !== null && RETRYABLE_CODES.has(code)) || response.ok;
  return { kind: 'refused', code, title: title.join(': ').slice(0, 300) || null, status: response.status, retry };
}

/** Why a media could not be served (the proxy answers 404 or 502 with the Spanish text). */
export class MediaUnavailable extends Error {
  override name = 'MediaUnavailable';
  readonly status: 404 | 502;
  constructor(message: string, status: 404 | 502) {
    super(message);
    this.status = status;
  }
}

/**
 * A media's bytes: GET {WHATSAPP_API_URL}/{media-id} (a number) gives a
 * short-lived URL (`{url, mime_type, file_size}`), fetched with the same
 * token, only over https (http only when WHATSAPP_API_URL itself is http) and
 * only from the configured media hosts (WHATSAPP_API_URL's and
 * WHATSAPP_MEDIA_HOSTS): a URL naming any other host or scheme is refused
 * before any request to it, and neither request follows a redirect.
 */
export interface MediaBytes {
  body: ReadableStream<Uint8Array>;
  /** The platform's Content-Type and Content-Length, as sent. */
  type: string | null;
  length: string | null;
}

/** The platform's media ids are numbers (payload.ts keeps no other): anything else is never put in a URL. */
export const MEDIA_ID = /^\d{1,64}$/;

export async function fetchMedia(config: WhatsappConfig, mediaId: string): Promise<MediaBytes> {
  if (!MEDIA_ID.test(mediaId)) throw new MediaUnavailable('Este mensaje no tiene un archivo válido de WhatsApp.', 404);
  const lookup = await fetch(`${config.apiUrl}/${encodeURIComponent(mediaId)}`, {
    headers: { Authorization: `Bearer ${config.token}` },
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }).catch(() => null);
  if (!lookup) throw new MediaUnavailable('No se pudo conectar con WhatsApp para traer el archivo.', 502);
  const info = (await lookup.json().catch(() => null)) as { url?: unknown } | null;
  if (lookup.status === 404 || (lookup.status === 400 && !info?.url)) {
    throw new MediaUnavailable('WhatsApp ya no tiene este archivo (los guarda 30 días).', 404);
  }
  if (!lookup.ok || typeof info?.url !== 'string') {
    throw new MediaUnavailable('WhatsApp no entregó el archivo. Inténtalo más tarde.', 502);
  }
  let url: URL;
  try {
    url = new URL(info.url);
  } catch {
    throw new MediaUnavailable('WhatsApp entregó una dirección de archivo no válida.', 502);
  }
  // The token goes with the request: only encrypted, unless the configured API itself is plain http (a local fake).
  const protocols = new URL(config.apiUrl).protocol === 'http:' ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol) || !config.mediaHosts.includes(url.host.toLowerCase())) {
    throw new MediaUnavailable('La dirección del archivo no es de WhatsApp: no se descargó.', 502);
  }
  const media = await fetch(url, {
    headers: { Authorization: `Bearer ${config.token}` },
    redirect: 'error',
    signal: AbortSignal.timeout(60_000),
  }).catch(() => null);
  if (!media?.ok || !media.body) {
    throw new MediaUnavailable('WhatsApp no entregó el archivo. Inténtalo más tarde.', 502);
  }
  return { body: media.body, type: media.headers.get('content-type'), length: media.headers.get('content-length') };
}
