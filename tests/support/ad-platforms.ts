import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of the two ad platforms' conversion APIs, on one free port of
 * 127.0.0.1 (issue #43), from their documented formats: Meta's Conversions
 * API (`POST /v26.0/{dataset}/events`, Bearer token, `{data: [...]}` answered
 * `{events_received, messages, fbtrace_id}`) under /meta; Google's OAuth token
 * endpoint (refresh token grant) and Data Manager's `POST /v1/events:ingest`
 * (answered `{requestId}`) under /google. They keep what they were sent.
 */
export const META_DATASET = '123456789012345';
export const META_TOKEN = 'EAAB-meta-conversions-token-for-tests';
export const GOOGLE_CUSTOMER = '1234567890';
export const GOOGLE_ACTIONS = { lead: '1001', schedule: '1002', purchase: '1003', won: '1004' } as const;

export interface AdPlatforms {
  url: string;
  meta: { dataset: string; authorization: string | undefined; body: { data: Record<string, unknown>[] } }[];
  google: { authorization: string | undefined; body: Record<string, unknown> }[];
  tokens: URLSearchParams[];
  /** The next request to a platform answers this status (a platform down), once. */
  failNext(platform: 'meta' | 'google', status: number): void;
  /**
   * Conversions (Meta's event_id, Google's transactionId) the platforms find
   * invalid: a request that carries one is refused whole with a 400, as both
   * document (Meta names the event's index, Google the field).
   */
  invalid: Set<string>;
  close(): Promise<void>;
}

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startAdPlatforms(): Promise<AdPlatforms> {
  const meta: AdPlatforms['meta'] = [];
  const google: AdPlatforms['google'] = [];
  const tokens: URLSearchParams[] = [];
  const failing = new Map<'meta' | 'google', number>();
  const invalid = new Set<string>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const text = await read(request);
    const platform = url.pathname.startsWith('/meta/') ? 'meta' : 'google';
    const failure = failing.get(platform);
    if (failure && url.pathname !== '/google/token') {
      failing.delete(platform);
      return answer(failure, { error: { message: 'Service temporarily unavailable', code: 2 } });
    }
    const events = /^\/meta\/v26\.0\/(\d+)\/events$/.exec(url.pathname);
    if (request.method === 'POST' && events) {
      if (request.headers.authorization !== `Bearer ${META_TOKEN}`) {
        return answer(401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      }
      const body = JSON.parse(text) as { data: Record<string, unknown>[] };
      const refused = body.data.findIndex((event) => invalid.has(String(event.event_id)));
      if (refused >= 0) {
        return answer(400, {
          error: {
            message: 'Invalid parameter',
            type: 'OAuthException',
            code: 100,
            error_subcode: 2804003,
            is_transient: false,
            error_user_title: 'Invalid event',
            error_user_msg: 'The event could not be processed.',
            error_data: { event_index: refused },
            fbtrace_id: 'AbCdEf400',
          },
        });
      }
      meta.push({ dataset: events[1] as string, authorization: request.headers.authorization, body });
      return answer(200, { events_received: body.data.length, messages: [], fbtrace_id: 'AbCdEf123' });
    }
    if (request.method === 'POST' && url.pathname === '/google/token') {
      const form = new URLSearchParams(text);
      tokens.push(form);
      if (form.get('grant_type') !== 'refresh_token') return answer(400, { error: 'unsupported_grant_type' });
      return answer(200, { access_token: 'ya29.fake-access-token', expires_in: 3599, token_type: 'Bearer' });
    }
    if (request.method === 'POST' && url.pathname === '/google/v1/events:ingest') {
      if (request.headers.authorization !== 'Bearer ya29.fake-access-token') {
        return answer(401, {
          error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
        });
      }
      const body = JSON.parse(text) as { events: Record<string, unknown>[] };
      const refused = body.events.findIndex((event) => invalid.has(String(event.transactionId)));
      if (refused >= 0) {
        return answer(400, {
          error: {
            code: 400,
            message: `Request contains an invalid argument. events[${refused}]`,
            status: 'INVALID_ARGUMENT',
          },
        });
      }
      google.push({ authorization: request.headers.authorization, body });
      return answer(200, { requestId: `req-${google.length}` });
    }
    return answer(404, { error: { message: `No route ${request.method} ${url.pathname}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    meta,
    google,
    tokens,
    failNext: (platform, status) => failing.set(platform, status),
    invalid,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment that turns both destinations on against the fakes. */
export function adPlatformsEnv(fake: AdPlatforms): Record<string, string> {
  return {
    AD_PLATFORMS_TEST_BASE: fake.url,
    META_DATASET_ID: META_DATASET,
    META_ACCESS_TOKEN: META_TOKEN,
    GOOGLE_ADS_CUSTOMER_ID: GOOGLE_CUSTOMER,
    GOOGLE_ADS_CONVERSION_ACTIONS: Object.entries(GOOGLE_ACTIONS)
      .map(([event, action]) => `${event}:${action}`)
      .join(','),
    GOOGLE_OAUTH_CLIENT_ID: 'client-id.apps.googleusercontent.com',
    GOOGLE_OAUTH_CLIENT_SECRET: 'client-secret-for-tests',
    GOOGLE_OAUTH_REFRESH_TOKEN: '1//refresh-token-for-tests',
  };
}
