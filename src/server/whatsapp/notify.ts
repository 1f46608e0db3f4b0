import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';

/** Tells the assigned adviser about their contact's new messages (filled in by item 1's notification step). */
export async function notifyInbound(
  _db: Database,
  _inbound: readonly { messageId: string; contactId: string; created: boolean }[],
  _config: ServerConfig,
): Promise<void> {}
