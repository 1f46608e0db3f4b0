/**
 * The panel's API as the component tests see it: a real HTTP server on a free
 * port, answering each `METHOD /path` with the JSON a test gives it (the
 * shapes of src/lib/admin/*). A route may hold its answer until the test
 * releases it, to look at the view while it waits.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  body?: unknown;
}

type Route = (request: { body: unknown; url: URL }) => Answer | Promise<Answer>;

export interface PanelApi {
  origin: string;
  /** Answers `METHOD /path` (query ignored) with `route`, replacing what it answered before. */
  on(route: string, answer: Route | Answer): void;
  /** The requests received, as `METHOD /path?query`. */
  requests: string[];
  reset(): void;
  close(): Promise<void>;
}

const read = async (request: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
};

export async function startPanelApi(): Promise<PanelApi> {
  const routes = new Map<string, Route>();
  const requests: string[] = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const route = routes.get(`${request.method} ${url.pathname}`);
    const answer = route
      ? await route({ body: await read(request), url })
      : { status: 404, body: { error: 'No existe.' } };
    const status = answer.status ?? 200;
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(status === 204 ? undefined : JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    on: (route, answer) => routes.set(route, typeof answer === 'function' ? answer : () => answer),
    requests,
    reset: () => {
      routes.clear();
      requests.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
