import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of the voice platform's REST API (Vapi, https://api.vapi.ai), on a
 * free port of 127.0.0.1, from its documented formats (VapiAI/docs,
 * fern/apis/api/openapi.json; /work notes in docs/decisions/0071): Bearer
 * private key; `POST /credential` (custom-credential); `POST /assistant`
 * (201), `GET /assistant` (a plain array), `GET` and `PATCH
 * /assistant/{id}` (PATCH replaces each top-level field it is sent). It keeps
 * what it was sent, for the test to read.
 */
export const PRIVATE_KEY = 'vapi-private-key-for-tests';

export interface FakeVoicePlatform {
  url: string;
  assistants: Map<string, Record<string, unknown>>;
  credentials: Map<string, Record<string, unknown>>;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeVoicePlatform(): Promise<FakeVoicePlatform> {
  const assistants = new Map<string, Record<string, unknown>>();
  const credentials = new Map<string, Record<string, unknown>>();
  const requests: { method: string; path: string }[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: request.method ?? '', path: url.pathname });
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${PRIVATE_KEY}`) {
      return answer(401, {
        message: 'Invalid Key. Hot tip, you may be using the public key instead of the private key.',
        error: 'Unauthorized',
        statusCode: 401,
      });
    }
    const body = request.method === 'GET' ? {} : (JSON.parse((await read(request)) || '{}') as Record<string, unknown>);
    const now = new Date().toISOString();
    if (request.method === 'POST' && url.pathname === '/credential') {
      const id = randomUUID();
      credentials.set(id, { ...body, id, orgId: 'org-1', createdAt: now, updatedAt: now });
      // Secrets are never read back.
      return answer(201, {
        id,
        orgId: 'org-1',
        provider: body.provider,
        name: body.name,
        createdAt: now,
        updatedAt: now,
      });
    }
    if (request.method === 'POST' && url.pathname === '/assistant') {
      const id = randomUUID();
      const assistant = { ...body, id, orgId: 'org-1', createdAt: now, updatedAt: now };
      assistants.set(id, assistant);
      return answer(201, assistant);
    }
    if (request.method === 'GET' && url.pathname === '/assistant') return answer(200, [...assistants.values()]);
    const one = /^\/assistant\/([^/]+)$/.exec(url.pathname);
    const found = one ? assistants.get(decodeURIComponent(one[1] as string)) : undefined;
    if (one && !found)
      return answer(404, {
        message: "Couldn't Get Assistant. Assistant Not Found.",
        error: 'Not Found',
        statusCode: 404,
      });
    if (found && request.method === 'GET') return answer(200, found);
    if (found && request.method === 'PATCH') {
      const updated = { ...found, ...body, id: found.id, updatedAt: now };
      assistants.set(found.id as string, updated);
      return answer(200, updated);
    }
    return answer(404, { message: `Cannot ${request.method} ${url.pathname}`, error: 'Not Found', statusCode: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    assistants,
    credentials,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
