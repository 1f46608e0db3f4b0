import { connect } from 'node:net';
import { afterAll } from 'vitest';
import { WebSocketServer } from 'ws';

/**
 * A WebSocket-to-TCP relay, as Neon runs in front of its databases, so that
 * tests drive `@neondatabase/serverless` against the embedded PostgreSQL.
 * Test-only: it relays to any address it is asked for, on loopback.
 */
/**
 * The connect timeout of a server behind the relay: each request opens its own connection through this
 * process, and beside a second suite on a shared 2-core machine that took over the production 5 s.
 * A bound for a relay that would hang, never a measure.
 */
export const RELAYED_CONNECT_TIMEOUT = { DATABASE_CONNECT_TIMEOUT_MS: '30000' };

export async function startNeonRelay(): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket, request) => {
    const address = new URL(request.url ?? '/', 'http://relay').searchParams.get('address') ?? '';
    const [host = '127.0.0.1', port = '5432'] = address.split(':');
    const tcp = connect({ host, port: Number(port) });
    tcp.on('data', (data) => socket.send(data));
    tcp.on('close', () => socket.close());
    tcp.on('error', () => socket.close());
    socket.on('message', (data) => tcp.write(data as Buffer));
    socket.on('close', () => tcp.destroy());
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const relay = {
    url: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  afterAll(() => relay.close());
  return relay;
}
