/**
 * A TCP relay for `bench:api` (issue #25) that holds every chunk for
 * DELAY_MS in each direction before passing it on, in order: a round trip
 * to PostgreSQL through it costs about 2 x DELAY_MS more, as a database a
 * network hop away does (Neon, from a function in the same region).
 *
 * Env: TARGET_HOST, TARGET_PORT, DELAY_MS (per direction), PORT, HOST,
 * EXIT_WITH_PARENT. Prints `Listening on http://host:port` (the form
 * spawnServer waits for; the relay speaks whatever its target speaks).
 */
import net from 'node:net';
import { onParentExit } from '../../src/server/local/lifetime.ts';

const parent = process.ppid;
const target = { host: process.env.TARGET_HOST ?? '127.0.0.1', port: Number(process.env.TARGET_PORT) };
const delayMs = Number(process.env.DELAY_MS ?? 1);

/** Passes what `from` sends to `to`, each chunk `delayMs` after it arrived, in order. */
function delayed(from: net.Socket, to: net.Socket): void {
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= now + 0.25) {
      const { chunk } = queue.shift() as { chunk: Buffer | null };
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    schedule();
  };
  const schedule = () => {
    const head = queue[0];
    if (timer || !head) return;
    timer = setTimeout(flush, Math.max(0, head.due - performance.now()));
  };
  const push = (chunk: Buffer | null) => {
    queue.push({ due: performance.now() + delayMs, chunk });
    schedule();
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
}

const server = net.createServer((client) => {
  client.setNoDelay(true);
  const upstream = net.connect(target, () => upstream.setNoDelay(true));
  delayed(client, upstream);
  delayed(upstream, client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
  client.on('close', close);
  upstream.on('close', close);
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const { port } = server.address() as net.AddressInfo;
  console.log(`Listening on http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => process.exit(0));
if (process.env.EXIT_WITH_PARENT) onParentExit(() => process.exit(0), parent);
