import net from 'node:net';
import { afterAll } from 'vitest';

export interface CountingRelay {
  /** DATABASE_URL through the relay. */
  url: string;
  /** Round trips the clients asked of PostgreSQL since the last reset: each Sync or simple Query is one. */
  roundTrips(): number;
  reset(): void;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * A TCP relay in front of the test's PostgreSQL that reads what clients send
 * (the frontend protocol) and counts the round trips: a simple Query ('Q'),
 * or a Sync ('S') that ends a batch of the extended protocol (Parse, Bind,
 * Execute... are sent together and answered at the Sync). Closed after the
 * test file.
 */
export async function startCountingRelay(databaseUrl: string): Promise<CountingRelay> {
  const target = new URL(databaseUrl);
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let startup = true; // the first message (and one after an SSL or GSS request) has no type byte
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          startup = code === SSL_REQUEST || code === GSS_REQUEST;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) break;
        const type = String.fromCharCode(pending[0] as number);
        if (type === 'Q' || type === 'S') count++;
        pending = pending.subarray(length + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    roundTrips: () => count,
    reset: () => {
      count = 0;
    },
  };
}
