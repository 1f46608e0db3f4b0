import {
  type ConversationFilter,
  type ConversationPage,
  type ConversationSummary,
  type MessagePage,
  type UnreadCount,
  WAITING_MINUTES,
} from '../../lib/whatsapp/contract.ts';
import { searchCondition } from '../contacts/list.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { MESSAGE_COLUMNS, type MessageRow, toMessage } from './messages.ts';

/**
 * The inbox's reads (issue #27, the panel side of decision 0039): the
 * conversations newest first, a contact's messages newest first, the badge's
 * count, and "read". They read what the webhook's processing keeps per
 * conversation (`whatsapp_conversations`) and never count messages.
 */
export const CONVERSATIONS_PAGE = 30;
export const MESSAGES_PAGE = 50;

const FILTER_CONDITIONS: Record<ConversationFilter, (values: unknown[], memberId: string) => string | null> = {
  all: () => null,
  mine: (values, memberId) => {
    values.push(memberId);
    return `c.assigned_to = $${values.length}`;
  },
  unassigned: () => 'c.assigned_to IS NULL',
  waiting: () => `w.waiting_since < now() - interval '${WAITING_MINUTES} minutes'`,
  opted_out: () => 'w.opted_out_at IS NOT NULL',
  unread: () => 'w.unread_count > 0',
};

interface ConversationRow {
  contact_id: string;
  name: string;
  phone: string;
  assigned_to: string | null;
  assigned_name: string | null;
  last_message_id: string | null;
  last_message_at: Date;
  last_direction: 'in' | 'out';
  last_preview: string;
  unread_count: number;
  waiting_since: Date | null;
  opted_out_at: Date | null;
  cursor_at: string;
}

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

function toConversation(row: ConversationRow): ConversationSummary {
  return {
    contactId: row.contact_id,
    name: row.name,
    phone: row.phone,
    assignedTo: row.assigned_to ? { id: row.assigned_to, name: row.assigned_name ?? '' } : null,
    lastMessage: {
      id: row.last_message_id,
      at: row.last_message_at.toISOString(),
      direction: row.last_direction,
      preview: row.last_preview,
    },
    unread: row.unread_count,
    waitingSince: iso(row.waiting_since),
    optedOutAt: iso(row.opted_out_at),
  };
}

/** One page of conversations, newest message first, keyset-paged by (last_message_at, contact_id). */
export async function listConversations(
  db: Queryable,
  query: { filter: ConversationFilter; q: string | null; cursor: Cursor | null; memberId: string },
): Promise<ConversationPage> {
  const values: unknown[] = [];
  const where: string[] = [];
  const condition = FILTER_CONDITIONS[query.filter](values, query.memberId);
  if (condition) where.push(condition);
  if (query.q) where.push(searchCondition(query.q, values));
  if (query.cursor) {
    values.push(query.cursor.at, query.cursor.id);
    where.push(`(w.last_message_at, w.contact_id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(CONVERSATIONS_PAGE + 1);
  const { rows } = await db.query<ConversationRow>(
    `SELECT w.contact_id, c.name, c.phone, c.assigned_to,
            (SELECT coalesce(u.name, u.email) FROM users u WHERE u.id = c.assigned_to) AS assigned_name,
            w.last_message_id, w.last_message_at, w.last_direction, w.last_preview, w.unread_count,
            w.waiting_since, w.opted_out_at, ${cursorTime('w.last_message_at')}
       FROM whatsapp_conversations w JOIN contacts c ON c.id = w.contact_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY w.last_message_at DESC, w.contact_id DESC
      LIMIT $${values.length}`,
    values,
  );
  const page = rows.slice(0, CONVERSATIONS_PAGE);
  const last = page.at(-1);
  return {
    conversations: page.map(toConversation),
    nextCursor:
      rows.length > CONVERSATIONS_PAGE && last ? encodeCursor({ at: last.cursor_at, id: last.contact_id }) : null,
  };
}

/** A contact's messages, newest first, 50 a page before `cursor`; null when the contact does not exist. */
export async function listMessages(
  db: Queryable,
  contactId: string,
  cursor: Cursor | null,
): Promise<MessagePage | null> {
  const values: unknown[] = [contactId];
  let before = '';
  if (cursor) {
    values.push(cursor.at, cursor.id);
    before = 'AND (m.created_at, m.id) < ($2::timestamptz, $3::uuid)';
  }
  values.push(MESSAGES_PAGE + 1);
  const { rows } = await db.query<MessageRow & { cursor_at: string }>(
    `SELECT ${MESSAGE_COLUMNS}, ${cursorTime('m.created_at')}
       FROM whatsapp_messages m
      WHERE m.contact_id = $1 ${before}
      ORDER BY m.created_at DESC, m.id DESC
      LIMIT $${values.length}`,
    values,
  );
  if (rows.length === 0) {
    const { rowCount } = await db.query('SELECT 1 FROM contacts WHERE id = $1', [contactId]);
    if (!rowCount) return null;
  }
  const page = rows.slice(0, MESSAGES_PAGE);
  const last = page.at(-1);
  return {
    messages: page.map(toMessage),
    nextCursor: rows.length > MESSAGES_PAGE && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** The badge: unread messages over every conversation (the partial index's rows only). */
export async function unreadCount(db: Queryable): Promise<UnreadCount> {
  const { rows } = await db.query<{ messages: string; conversations: string }>(
    `SELECT coalesce(sum(unread_count), 0) AS messages, count(*) AS conversations
       FROM whatsapp_conversations WHERE unread_count > 0`,
  );
  return { messages: Number(rows[0]?.messages ?? 0), conversations: Number(rows[0]?.conversations ?? 0) };
}

/** Marks the conversation read for the team; false when the contact does not exist. */
export async function markRead(db: Queryable, contactId: string, memberId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE whatsapp_conversations SET unread_count = 0, last_read_at = now(), last_read_by = $2, updated_at = now()
      WHERE contact_id = $1 AND unread_count > 0`,
    [contactId, memberId],
  );
  if (rowCount) return true;
  const found = await db.query('SELECT 1 FROM contacts WHERE id = $1', [contactId]);
  return Boolean(found.rowCount);
}
