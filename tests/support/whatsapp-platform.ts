import { createHmac, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './certificate.ts';
import { until } from './until.ts';

/**
 * A fake of the WhatsApp Business Platform's Cloud API on 127.0.0.1, written
 * from Meta's documented formats (we cannot call Meta from here):
 * - POST /{version}/{phone-number-id}/messages: `{messaging_product, contacts:
 *   [{input, wa_id}], messages: [{id}]}`, or the scripted refusal
 *   `{error: {message, type, code, error_data: {messaging_product, details}, fbtrace_id}}`;
 * - GET /{version}/{media-id}: `{url, mime_type, sha256, file_size, id, messaging_product}`;
 * - GET {url}: the media's bytes, with the same Bearer token;
 * and a sender of the `messages` webhook, signed like Meta signs it
 * (X-Hub-Signature-256: sha256=HMAC-SHA256(app secret, raw body)).
 * With `tls`, it answers over HTTPS with a self-signed certificate that the
 * server under test trusts through NODE_EXTRA_CA_CERTS (`caFile`).
 */

export const PHONE_NUMBER_ID = '106540352242922';
export const TOKEN = 'EAAG-fake-token-for-tests';
export const APP_SECRET = 'fake-app-secret-0123456789abcdef';
export const VERIFY_TOKEN = 'verify-token-ceiba';

export interface SentRequest {
  to: string;
  type: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export interface Scripted {
  status: number;
  code?: number;
  message?: string;
  /** Never answers (the connection is held): a send cut short. */
  hang?: boolean;
  /** Closes the socket without an answer: a network failure. */
  drop?: boolean;
}

export interface FakePlatform {
  url: string;
  /** WHATSAPP_API_URL for the server under test. */
  apiUrl: string;
  /** With `tls`: the certificate to trust (NODE_EXTRA_CA_CERTS). */
  caFile: string | null;
  sent: SentRequest[];
  /** Media lookups and downloads received, as "GET /path". */
  mediaRequests: string[];
  /** Answers the next sends with these, in order (then accepts). */
  script(...answers: Scripted[]): void;
  /** The URL the media lookup gives for `mediaId` (another host, to prove it is never fetched). */
  mediaUrlFor(mediaId: string, url: string): void;
  waitForSent(count: number, timeoutMs?: number): Promise<SentRequest[]>;
  close(): Promise<void>;
}

const read = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export const MEDIA_BYTES = Buffer.from('fake-jpeg-bytes \u00e1\u00e9');

/**
 * `port`: a fixed one (the e2e server is configured before the story starts the fake); 0, any free one.
 * `tls`: HTTPS instead of HTTP.
 */
export async function startFakePlatform(options: { port?: number; tls?: boolean } = {}): Promise<FakePlatform> {
  const sent: SentRequest[] = [];
  const mediaRequests: string[] = [];
  const scripted: Scripted[] = [];
  const mediaUrls = new Map<string, string>();
  const held = new Set<() => void>();
  let base = '';
  const listener: RequestListener = async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const authorized = request.headers.authorization === `Bearer ${TOKEN}`;
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'POST' && url.pathname === `/v23.0/${PHONE_NUMBER_ID}/messages`) {
      const body = JSON.parse(await read(request)) as Record<string, unknown>;
      sent.push({
        to: String(body.to),
        type: String(body.type),
        body,
        authorization: request.headers.authorization,
      });
      if (!authorized) {
        return answer(401, {
          error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: 'A1' },
        });
      }
      const next = scripted.shift();
      if (next?.hang) {
        await new Promise<void>((resolve) => held.add(resolve));
        response.destroy();
        return;
      }
      if (next?.drop) {
        request.socket.destroy();
        return;
      }
      if (next) {
        return answer(next.status, {
          error: {
            message: next.message ?? `(#${next.code}) Error`,
            type: 'OAuthException',
            code: next.code,
            error_data: { messaging_product: 'whatsapp', details: next.message ?? 'Detalle' },
            fbtrace_id: 'A2',
          },
        });
      }
      return answer(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id: `wamid.${randomBytes(12).toString('hex')}` }],
      });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/v23.0/')) {
      mediaRequests.push(`GET ${url.pathname}`);
      if (!authorized) return answer(401, { error: { message: 'Invalid OAuth access token.', code: 190 } });
      const mediaId = url.pathname.slice('/v23.0/'.length);
      if (mediaId === 'gone') return answer(404, { error: { message: 'Unsupported get request.', code: 100 } });
      return answer(200, {
        url: mediaUrls.get(mediaId) ?? `${base}/media/${mediaId}?ext=1`,
        mime_type: 'image/jpeg',
        sha256: 'abc',
        file_size: MEDIA_BYTES.length,
        id: mediaId,
        messaging_product: 'whatsapp',
      });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/media/')) {
      mediaRequests.push(`GET ${url.pathname}`);
      if (!authorized) return answer(401, { error: { message: 'Invalid OAuth access token.', code: 190 } });
      response.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': MEDIA_BYTES.length });
      response.end(MEDIA_BYTES);
      return;
    }
    answer(404, { error: { message: 'Unknown path', code: 100 } });
  };
  const tls = options.tls ? await selfSignedCertificate('whatsapp-platform-') : null;
  const server = tls
    ? createTlsServer({ key: await readFile(tls.keyFile), cert: await readFile(tls.caFile) }, listener)
    : createServer(listener);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    url: base,
    apiUrl: `${base}/v23.0`,
    caFile: tls?.caFile ?? null,
    sent,
    mediaRequests,
    script: (...answers) => scripted.push(...answers),
    mediaUrlFor: (mediaId, url) => mediaUrls.set(mediaId, url),
    waitForSent: async (count, timeoutMs = 20_000) => {
      await until(
        () => sent.length >= count,
        () => `${count} sends (got ${sent.length})`,
        timeoutMs,
      );
      return sent;
    },
    close: () => {
      for (const release of held) release();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------- The webhook's payloads (Meta's "messages webhook reference") and their signature ----------

export function sign(raw: string | Buffer, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

export function postWebhook(serverUrl: string, payload: unknown, secret = APP_SECRET): Promise<Response> {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return fetch(`${serverUrl}/api/whatsapp/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': sign(raw, secret) },
    body: raw,
  });
}

const envelope = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '529991112233', phone_number_id: PHONE_NUMBER_ID },
            ...value,
          },
          field: 'messages',
        },
      ],
    },
  ],
});

let sequence = 0;
export function wamid(): string {
  sequence += 1;
  return `wamid.HBgL${Date.now().toString(36)}${sequence}${randomBytes(4).toString('hex')}`;
}

/** A message from `from` (WhatsApp id, digits), of `type` with its object, as the webhook delivers it. */
export function inboundPayload(options: {
  from: string;
  name?: string;
  id?: string;
  type?: string;
  content?: Record<string, unknown>;
  timestamp?: number;
  extra?: Record<string, unknown>;
}) {
  const type = options.type ?? 'text';
  return envelope({
    contacts: [{ profile: { name: options.name ?? 'Sheena Nelson' }, wa_id: options.from }],
    messages: [
      {
        from: options.from,
        id: options.id ?? wamid(),
        timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
        type,
        ...(type === 'unsupported' ? {} : { [type]: options.content ?? { body: 'Hola' } }),
        ...options.extra,
      },
    ],
  });
}

/** A status of a message of ours; `failed` carries the platform's error. */
export function statusPayload(options: {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipient?: string;
  timestamp?: number;
  callback?: string;
  error?: { code: number; title: string };
}) {
  return envelope({
    statuses: [
      {
        id: options.id,
        status: options.status,
        timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
        recipient_id: options.recipient ?? '5219991234567',
        ...(options.callback ? { biz_opaque_callback_data: options.callback } : {}),
        ...(options.status === 'failed'
          ? {
              errors: [
                {
                  code: options.error?.code ?? 131026,
                  title: options.error?.title ?? 'Message undeliverable',
                  message: options.error?.title ?? 'Message undeliverable',
                  error_data: { details: 'Message Undeliverable.' },
                },
              ],
            }
          : {
              conversation: { id: 'conv1', origin: { type: 'service' } },
              pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
            }),
      },
    ],
  });
}

/** The environment that turns the conversations on against the fake. */
export function whatsappEnv(platform: FakePlatform, extra: Record<string, string> = {}): Record<string, string> {
  return {
    WHATSAPP_TOKEN: TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_API_URL: platform.apiUrl,
    ...extra,
  };
}
