import type { TaskList } from 'graphile-worker';
import type { ServerConfig, WhatsappConfig } from '../config.ts';
import { QUEUE_CONNECTIONS, withDatabase, withQueueDatabase } from '../db/database.ts';
import type { JobSource } from '../jobs/pool.ts';
import { bookChoice } from './booking.ts';
import { processEvent } from './inbound.ts';
import { alertAdministrators } from './limit-alert.ts';
import {
  BOOK_CHOICE_TASK,
  LIMIT_ALERT_TASK,
  maintainWhatsapp,
  PROCESS_EVENT_TASK,
  SEND_MESSAGE_TASK,
} from './queue.ts';
import { sendMessage } from './send.ts';
import { acknowledging } from './webhook.ts';

/**
 * At most `slots()` of `work` at once (asked again whenever one ends, and
 * every 50 ms while some wait: the answer may change); the rest wait their
 * turn in order, in memory, holding no connection. At least one always runs.
 */
export function limited(slots: () => number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  let recheck: NodeJS.Timeout | null = null;
  const admit = () => {
    while (waiting.length > 0 && (running === 0 || running < slots())) {
      running += 1;
      (waiting.shift() as () => void)();
    }
    if (waiting.length > 0 && recheck === null) {
      recheck = setTimeout(() => {
        recheck = null;
        admit();
      }, 50);
      recheck.unref();
    }
  };
  return async (work) => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      admit();
    });
    try {
      return await work();
    } finally {
      running -= 1;
      admit();
    }
  };
}

/**
 * Deliveries processed at once: one while the webhook is acknowledging
 * deliveries (the answers come first; the processing catches up after), as
 * many as the queue has connections otherwise. One per process: a runner
 * started again shares it with the one it replaces.
 */
const processing = limited(() => (acknowledging() ? 1 : QUEUE_CONNECTIONS));

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
          await processEvent(db, eventId, {
            emailNotices: config.notifications.email !== null,
            phoneNumberId: (config.whatsapp as WhatsappConfig).phoneNumberId,
          });
        }, config),
      );
    },
    async [SEND_MESSAGE_TASK](payload) {
      const { messageId } = payload as { messageId: string };
      await withDatabase((db) => sendMessage(db, messageId, config), config);
    },
    async [BOOK_CHOICE_TASK](payload) {
      const { messageId } = payload as { messageId: string };
      await withDatabase((db) => bookChoice(db, messageId), config);
    },
    async [LIMIT_ALERT_TASK](payload) {
      await withDatabase((db) => alertAdministrators(db, payload, config), config);
    },
  };
}

/** What WhatsApp hands the job runner (src/server/tasks.ts): its conversations' lane and their upkeep. */
export const whatsappJobs: JobSource = {
  // WhatsApp conversations (decision 0039): their webhook's events and our messages, in a lane of their own.
  lanes: (config) =>
    config.whatsapp === null ? [] : [{ channel: 'whatsapp_conversations', tasks: conversationTasks(config) }],
  async maintain(db, config) {
    if (config.whatsapp !== null) await maintainWhatsapp(db);
  },
};
