import type { TaskList } from 'graphile-worker';
import type { ServerConfig } from '../config.ts';
import { QUEUE_CONNECTIONS, withDatabase, withQueueDatabase } from '../db/database.ts';
import { processEvent } from './inbound.ts';
import { notifyInbound } from './notify.ts';
import { PROCESS_EVENT_TASK, SEND_MESSAGE_TASK } from './queue.ts';
import { sendMessage } from './send.ts';

/**
 * At most `slots` of `work` at once; the rest wait their turn in order (in
 * memory, holding no connection).
 */
export function limited(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

/** One per process: a runner started again shares it with the one it replaces. */
const processing = limited(QUEUE_CONNECTIONS);

/**
 * The conversations' lane of the queue: a webhook delivery to process, a
 * message of ours to send. Deliveries are processed on the queue's own
 * connections, as many at once as it has (decision 0039, addendum of
 * 2026-11-27): the lane's other slots wait in memory, and the requests' pool
 * stays free for the webhook's acknowledgements and the panel.
 */
export function conversationTasks(config: ServerConfig): TaskList {
  return {
    async [PROCESS_EVENT_TASK](payload) {
      const { eventId } = payload as { eventId: string | number };
      await processing(() =>
        withQueueDatabase(async (db) => {
          const outcome = await processEvent(db, eventId);
          if (outcome.inbound.length > 0) await notifyInbound(db, outcome.inbound, config);
        }, config),
      );
    },
    async [SEND_MESSAGE_TASK](payload) {
      const { messageId } = payload as { messageId: string };
      await withDatabase((db) => sendMessage(db, messageId, config), config);
    },
  };
}
