import type { RunningServer } from './server.ts';
import { countRows } from './sql.ts';

/**
 * Resolves once the queue has processed every webhook delivery stored so far
 * (the webhook answers before it processes: decision 0039); after 20 s it
 * fails with the end of `server`'s log.
 */
export async function webhookEventsProcessed(server: RunningServer): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await countRows('whatsapp_webhook_events', 'processed_at IS NULL')) > 0) {
    if (Date.now() > deadline) throw new Error(`webhook events still unprocessed:\n${server.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
