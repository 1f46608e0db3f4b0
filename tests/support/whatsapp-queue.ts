import type { RunningServer } from './server.ts';
import { countRows } from './sql.ts';
import { untilValue } from './until.ts';

/**
 * Resolves once the queue has processed every webhook delivery stored so far
 * (the webhook answers before it processes: decision 0039); a timeout's
 * error ends with the end of `server`'s log.
 */
export async function webhookEventsProcessed(server: RunningServer): Promise<void> {
  await untilValue(
    () => countRows('whatsapp_webhook_events', 'processed_at IS NULL'),
    (unprocessed) => unprocessed === 0,
    'every webhook event processed',
    { context: () => server.output().slice(-3000) },
  );
}
