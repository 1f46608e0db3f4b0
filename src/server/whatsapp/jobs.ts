import type { TaskList } from 'graphile-worker';
import type { ServerConfig } from '../config.ts';
import { withDatabase } from '../db/database.ts';
import { processEvent } from './inbound.ts';
import { notifyInbound } from './notify.ts';
import { PROCESS_EVENT_TASK, SEND_MESSAGE_TASK } from './queue.ts';
import { sendMessage } from './send.ts';

/** The conversations' lane of the queue: a webhook delivery to process, a message of ours to send. */
export function conversationTasks(config: ServerConfig): TaskList {
  return {
    async [PROCESS_EVENT_TASK](payload) {
      const { eventId } = payload as { eventId: string | number };
      await withDatabase(async (db) => {
        const outcome = await processEvent(db, eventId);
        if (outcome.inbound.length > 0) await notifyInbound(db, outcome.inbound, config);
      }, config);
    },
    async [SEND_MESSAGE_TASK](payload) {
      const { messageId } = payload as { messageId: string };
      await withDatabase((db) => sendMessage(db, messageId, config), config);
    },
  };
}
