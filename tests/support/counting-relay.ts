import net from 'node:net';
import { afterAll } from 'vitest';

export interface CountingRelay {
  /** DATABASE_URL through the relay. */
  url: string;
  /** Round trips the clients asked of PostgreSQL since the last reset: each Sync or simple Query is one. */
  roundTrips(): number;
  /** The most round trips waiting for their answer at one moment, over all connections, since the last reset. */
  mostAtOnce(): number;
  reset(): void;
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/**
 * Calls `visit` with the type of each whole message at the start of
 * `buffer` (a type byte, then a length that counts itself); returns the rest,
 * a message not yet whole.
 */
function eachMessage(buffer: Buffer, visit: (type: string) => void): Buffer {
  let rest = buffer;
  while (rest.length >= 5) {
    const length = rest.readInt32BE(1);
    if (rest.length < length + 1) break;
    visit(String.fromCharCode(rest[0] as number));
    rest = rest.subarray(length + 1);
  }
  return rest;
}

/**
 * A TCP relay in front of the test's PostgreSQL that reads what clients send
 * (the frontend protocol) and counts the round trips: a simple Query ('Q'),
 * or a Sync ('S') that ends a batch of the extended protocol (Parse, Bind,
 * Execute... are sent together and answered at the Sync), and how many were
 * waiting at once (each is answered by a ReadyForQuery, 'Z'; the one that
 * ends a connection's startup answers none). Closed after the test file.
 */
export async function startCountingRelay(databaseUrl: string): Promise<CountingRelay> {
  const target = new URL(databaseUrl);
  let count = 0;
  let waiting = 0;
  let most = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    let startup = true; // the first message (and one after an SSL or GSS request) has no type byte
    let asked = 0; // this connection's round trips not answered yet
    let ready = false; // the startup's own ReadyForQuery seen
    let answers: Buffer = Buffer.alloc(0);
    let oneByteAnswers = 0; // SSL or GSS requests sent: each is answered by one byte, before any message
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (startup && pending.length >= 8 && pending.length >= pending.readInt32BE(0)) {
        const length = pending.readInt32BE(0);
        const code = pending.readInt32BE(4);
        startup = code === SSL_REQUEST || code === GSS_REQUEST;
        if (startup) oneByteAnswers++;
        pending = pending.subarray(length);
      }
      if (!startup) {
        pending = eachMessage(pending, (type) => {
          if (type === 'Q' || type === 'S') {
            count++;
            asked++;
            waiting++;
            most = Math.max(most, waiting);
          }
        });
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      answers = Buffer.concat([answers, chunk]);
      while (oneByteAnswers > 0 && answers.length > 0) {
        oneByteAnswers--;
        answers = answers.subarray(1);
      }
      answers = eachMessage(answers, (type) => {
        if (type !== 'Z') return;
        if (!ready) ready = true;
        else if (asked > 0) {
          asked--;
          waiting--;
        }
      });
      client.write(chunk);
    });
    const close = () => {
      waiting -= asked;
      asked = 0;
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
    mostAtOnce: () => most,
    reset: () => {
      count = 0;
      most = waiting;
    },
  };
}
