import type { TimelineEntry } from '../../../lib/admin/contacts.ts';
import type { WhatsappMessage } from '../../../lib/whatsapp/contract.ts';

/** One row of the contact's stream: a WhatsApp message (a bubble) or an entry of the history (a centred row). */
export type StreamItem =
  | { type: 'message'; at: string; key: string; message: WhatsappMessage }
  | { type: 'entry'; at: string; key: string; entry: TimelineEntry };

export const entryKey = (entry: TimelineEntry): string =>
  `${entry.type}-${entry.at}-${entry.type === 'event' ? entry.kind : entry.id}`;

/**
 * The conversation and the history as one stream, oldest first (decision
 * 0043). `messages` are the pages loaded so far (oldest first, each once);
 * the history comes whole with the contact. While older messages remain to
 * be loaded (`complete` false), the history shows from the oldest loaded
 * message on, so the stream has no gap: scrolling up brings older messages
 * and the calls, notes and changes of their time together. At the same
 * instant a history entry comes before a message (a "WhatsApp" attempt
 * pressed, then the message written).
 */
export function mergeStream(messages: WhatsappMessage[], timeline: TimelineEntry[], complete: boolean): StreamItem[] {
  const from = !complete && messages[0] ? Date.parse(messages[0].createdAt) : Number.NEGATIVE_INFINITY;
  const rows: (StreamItem & { time: number; order: number })[] = [];
  for (const entry of timeline) {
    const time = Date.parse(entry.at);
    if (time >= from) rows.push({ type: 'entry', at: entry.at, key: entryKey(entry), entry, time, order: 0 });
  }
  for (const message of messages) {
    rows.push({
      type: 'message',
      at: message.createdAt,
      key: `message-${message.id}`,
      message,
      time: Date.parse(message.createdAt),
      order: 1,
    });
  }
  // A stable sort: rows of one instant and one type keep the order they came in (the server's).
  rows.sort((a, b) => a.time - b.time || a.order - b.order);
  return rows.map(({ time: _time, order: _order, ...item }) => item as StreamItem);
}
