import { describe, expect, it } from 'vitest';
import { quickQuote } from '../support/payloads.ts';
import { postJson, startServer } from '../support/server.ts';
import { countRows } from '../support/sql.ts';

/**
 * The server's log lines go to a pipe (npm, systemd, a test runner). When the
 * reader of that pipe goes away, every write fails with EPIPE. Found in this
 * machine's process list: two test servers whose runner had died spun at
 * 100% of a core for an hour, answering nothing and deaf to SIGTERM, because
 * the last-resort handler of decision 0024 logged the EPIPE as an uncaught
 * error, which failed to write again, on every tick.
 */
describe('a log pipe whose reader is gone', () => {
  it('does not stop the server: it keeps answering and still stops on SIGTERM', async () => {
    const server = await startServer();
    // The reader goes away: the next log line (this lead's) fails to write.
    server.process.stdout?.destroy();
    server.process.stderr?.destroy();
    const first = await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name: 'Sin bitácora' }));
    expect(first.status).toBe(201);
    // A spinning server would never answer this one (the signal bounds the wait).
    const second = await fetch(`${server.url}/api/quick-quotes`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(quickQuote({ name: 'Sin bitácora otra vez' })),
      signal: AbortSignal.timeout(20_000),
    });
    expect(second.status).toBe(201);
    expect(await countRows('cotizaciones_rapidas', "name LIKE 'Sin bitácora%'")).toBe(2);
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
