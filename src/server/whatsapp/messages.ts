import { type MessageKind, type MessageStatus, mediaUrl, type WhatsappMessage } from '../../lib/whatsapp/contract.ts';
import { listOf } from './slot-list.ts';

/**
 * A message row as the panel receives it (contract.ts). The read endpoints
 * select MESSAGE_COLUMNS from `whatsapp_messages m` and map with toMessage.
 */
export const MESSAGE_COLUMNS = `m.id, m.contact_id, m.direction, m.kind, m.body, m.media_id IS NOT NULL AS has_media,
  m.media_mime, m.media_filename, m.reply_to,
  (SELECT r.id FROM whatsapp_messages r WHERE r.wa_message_id = m.reply_to) AS reply_to_id,
  m.status, m.status_at, m.error_code, m.error_reason, m.template_name, m.sent_by, m.sent_by_name, m.automated,
  CASE WHEN m.kind = 'location' THEN m.raw -> 'location' END AS location,
  CASE WHEN m.kind = 'interactive' AND m.direction = 'out' THEN m.raw -> 'interactive' END AS interactive, m.created_at`;

export interface MessageRow {
  id: string;
  contact_id: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  body: string;
  has_media: boolean;
  media_mime: string | null;
  media_filename: string | null;
  reply_to: string | null;
  reply_to_id: string | null;
  status: MessageStatus;
  status_at: Date;
  error_code: number | null;
  error_reason: string | null;
  template_name: string | null;
  sent_by: string | null;
  sent_by_name: string | null;
  automated: boolean;
  location: { latitude?: unknown; longitude?: unknown; name?: unknown; address?: unknown } | null;
  /** Ours, an interactive list: Meta's `interactive` object as sent. */
  interactive?: unknown;
  created_at: Date;
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export function toMessage(row: MessageRow): WhatsappMessage {
  const latitude = Number(row.location?.latitude);
  const longitude = Number(row.location?.longitude);
  return {
    id: row.id,
    contactId: row.contact_id,
    direction: row.direction,
    kind: row.kind,
    body: row.body,
    media: row.has_media ? { url: mediaUrl(row.id), mime: row.media_mime, filename: row.media_filename } : null,
    location:
      row.location && Number.isFinite(latitude) && Number.isFinite(longitude)
        ? { latitude, longitude, name: textOrNull(row.location.name), address: textOrNull(row.location.address) }
        : null,
    replyTo: row.reply_to ? { waMessageId: row.reply_to, messageId: row.reply_to_id } : null,
    status: row.status,
    statusAt: new Date(row.status_at).toISOString(),
    error:
      row.status === 'failed' || row.status === 'held'
        ? { code: row.error_code, reason: row.error_reason ?? 'WhatsApp no aceptó el mensaje.' }
        : null,
    templateName: row.template_name,
    // A member who sent it; the instant first reply has none and says so with `automated` (once, issue #38).
    sentBy: row.direction === 'out' && row.sent_by_name ? { id: row.sent_by, name: row.sent_by_name } : null,
    automated: row.automated,
    createdAt: new Date(row.created_at).toISOString(),
    list: row.interactive ? listOf(row.interactive) : null,
  };
}

export async function readMessage(
  db: { query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }> },
  id: string,
): Promise<WhatsappMessage | null> {
  const { rows } = await db.query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM whatsapp_messages m WHERE m.id = $1`, [
    id,
  ]);
  return rows[0] ? toMessage(rows[0]) : null;
}
