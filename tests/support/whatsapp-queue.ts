import { PROCESS_EVENT_TASK } from '../../src/server/whatsapp/queue.ts';
import type { RunningServer } from './server.ts';
import { sql } from './sql.ts';
import { untilValue } from './until.ts';

/**
 * Resolves once the queue has processed every webhook delivery stored so far
 * (the webhook answers before it processes: decision 0039) and each
 * processing job has ended: a job marks its delivery processed, then queues
 * the e-mail about an inbound message in a transaction of its own
 * (whatsapp/notify.ts), so a delivery processed is not yet all its job wrote.
 * A timeout's error ends with the end of `server`'s log.
 */
export async function webhookEventsProcessed(server: RunningServer): Promise<void> {
  await untilValue(
    async () =>
      (
        await sql<{ unprocessed: number; jobs: number }>(
          `SELECT (SELECT count(*) FROM whatsapp_webhook_events WHERE processed_at IS NULL)::int AS unprocessed,
                  (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = $1)::int AS jobs`,
          [PROCESS_EVENT_TASK],
        )
      )[0],
    (waiting) => waiting?.unprocessed === 0 && waiting.jobs === 0,
    'every webhook event processed and its job ended',
    { context: () => server.output().slice(-3000) },
  );
}
