import { normalizePhone } from '../../lib/forms/phone.ts';
import { isUuid } from '../../lib/ids.ts';
import { errorReason } from '../../lib/whatsapp/errors.ts';
import { recordActivity } from '../audit/activity.ts';
import { type Database, type Queryable, transactionRetried } from '../db/database.ts';
import { logJson } from '../log.ts';
import { askConsent, consentAnswer, recordConsent } from './consent.ts';
import { assignByRoundRobin, queueInboundNotices } from './notify.ts';
import { type InboundMessage, isOptOut, previewOf, readWebhook, type StatusUpdate } from './payload.ts';
import { scheduleChoices } from './queue.ts';
import { listReplyId, SLOT_CHOICE_PREFIX } from './slot-choice.ts';

/**
 * Processing of one stored delivery of the webhook (a job of the queue):
 * each message stored once by its platform id, each status moved forward
 * only, in one transaction with the event's `processed_at`. Running it twice,
 * or at once with a replay of the same messages, stores nothing twice: the
 * unique platform id makes the second INSERT wait and then do nothing, and
 * the conversation's counts move only for a row this transaction inserted.
 */
export function processEvent(
  db: Database,
  eventId: string | number,
  options: { emailNotices: boolean; phoneNumberId: string },
): Promise<ProcessOutcome> {
  // Two deliveries touching two conversations in opposite orders: one of them is chosen and tried again.
  return transactionRetried(db, (tx) => processLocked(tx, eventId, options));
}

export interface ProcessOutcome {
  /** The event was processed by an earlier run. */
  already: boolean;
  stored: number;
  statuses: number;
  /** Inbound messages stored now: their contact, and whether it was created by them. */
  inbound: { messageId: string; contactId: string; created: boolean }[];
}

async function processLocked(
  tx: Queryable,
  eventId: string | number,
  { emailNotices, phoneNumberId }: { emailNotices: boolean; phoneNumberId: string },
): Promise<ProcessOutcome> {
  const { rows } = await tx.query<{ body: string; processed: boolean }>(
    `SELECT body, processed_at IS NOT NULL AS processed FROM whatsapp_webhook_events WHERE id = $1 FOR UPDATE`,
    [eventId],
  );
  const event = rows[0];
  const outcome: ProcessOutcome = { already: true, stored: 0, statuses: 0, inbound: [] };
  if (!event || event.processed) return outcome;
  outcome.already = false;
  const content = readWebhook(event.body, phoneNumberId);
  if (content.otherNumbers > 0) {
    logJson('warn', { event: 'whatsapp_other_number', delivery: String(eventId), changes: content.otherNumbers });
  }
  // A known contact nobody follows gets the round-robin's next adviser with its message (when it is on).
  const unassigned = new Set<string>();
  const choices: string[] = [];
  for (const message of content.messages) {
    const stored = await storeInbound(tx, message);
    if (stored) {
      outcome.stored += 1;
      outcome.inbound.push({ messageId: stored.messageId, contactId: stored.contactId, created: stored.created });
      if (stored.unassigned) unassigned.add(stored.contactId);
      // A row of our free slots' list chosen: booked by its job (booking.ts, decision 0063).
      if (listReplyId(message.raw)?.startsWith(SLOT_CHOICE_PREFIX)) choices.push(stored.messageId);
      // Someone who came from an ad is asked the forms' consent, and their press recorded (consent.ts).
      const consent = consentAnswer(message.raw);
      if (consent) await recordConsent(tx, stored.contactId, consent);
      else if (message.referral) await askConsent(tx, stored.contactId);
    }
  }
  for (const contactId of unassigned) await assignByRoundRobin(tx, contactId);
  // Their adviser told by e-mail, queued with the messages (notify.ts).
  if (emailNotices)
    await queueInboundNotices(
      tx,
      outcome.inbound.map((entry) => entry.contactId),
    );
  await scheduleChoices(tx, choices);
  for (const status of content.statuses) {
    if (await applyStatus(tx, status)) outcome.statuses += 1;
  }
  await tx.query(
    'UPDATE whatsapp_webhook_events SET processed_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1',
    [eventId],
  );
  return outcome;
}

/**
 * At most `max` characters of `text`, cut between characters: a cut inside an emoji left half of it, which
 * JSON carries as a lone \ud83c that PostgreSQL's jsonb refuses (the whole delivery failed at every retry).
 */
const cut = (text: string, max: number) => [...text.toWellFormed()].slice(0, max).join('');

/** The attribution of a contact who first wrote on WhatsApp (decision 0039). */
function touchOf(message: InboundMessage): Record<string, string> {
  const referral = message.referral;
  if (!referral) return { utm_source: 'whatsapp', utm_medium: 'mensaje' };
  const touch: Record<string, string> = { utm_source: 'whatsapp', utm_medium: 'anuncio' };
  if (referral.sourceId) touch.utm_content = cut(referral.sourceId, 200);
  if (referral.headline) touch.utm_campaign = cut(referral.headline, 200);
  if (referral.sourceUrl) touch.referrer = cut(referral.sourceUrl, 2000);
  if (referral.ctwaClid) touch.ctwa_clid = referral.ctwaClid;
  return touch;
}

/**
 * A name the contacts table accepts (1 to 120 characters), or the number when WhatsApp gave none
 * (its bidirectional controls are gone already: readWebhook).
 */
function contactName(message: InboundMessage, phone: string): string {
  const name = (message.profileName ?? '')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 120);
  return name || `WhatsApp ${phone}`;
}

/**
 * Their message: the contact of its number (any format: WhatsApp's
 * 5219991234567 is the contact's +529991234567), created when unknown (its
 * profile name, `utm_source` whatsapp, the ad's referral, the round-robin's
 * adviser); the message once; the conversation's last message, unread count,
 * window and wait; the contact's last activity; an opt-out word.
 */
async function storeInbound(
  tx: Queryable,
  message: InboundMessage,
): Promise<(ProcessOutcome['inbound'][number] & { unassigned: boolean }) | null> {
  const phone = normalizePhone(`+${message.from}`);
  if (!phone) {
    logJson('warn', { event: 'whatsapp_number_refused', message: message.waMessageId });
    return null;
  }
  // A replay (most of them) stops here, before any write. One round trip: the message, its contact,
  // and whether the round-robin should give that contact an adviser.
  const { rows: found } = await tx.query<{ seen: boolean; id: string | null; unassigned: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM whatsapp_messages WHERE wa_message_id = $1) AS seen, c.id,
            coalesce(c.assigned_to IS NULL AND t.round_robin, false) AS unassigned
     FROM (SELECT 1) AS one LEFT JOIN team_settings t ON true LEFT JOIN contacts c ON c.phone = $2`,
    [message.waMessageId, phone],
  );
  if (found[0]?.seen !== false) return null;

  let created = false;
  let contactId = found[0]?.id ?? undefined;
  let unassigned = found[0]?.unassigned === true;
  if (!contactId) {
    const name = contactName(message, phone);
    const touched = await tx.query<{ id: string }>(
      `SELECT touch_contact($1, NULL, $2, NULL, NULL, true, $3::jsonb) AS id`,
      [phone, name, JSON.stringify(touchOf(message))],
    );
    contactId = touched.rows[0]?.id;
    // Created by this transaction (not by a lead that won the race): its created_at is this transaction's now().
    const fresh = await tx.query<{ created: boolean }>(
      'SELECT created_at = now() AS created FROM contacts WHERE id = $1',
      [contactId],
    );
    created = fresh.rows[0]?.created === true;
    // A lead's contact that won the race: the round-robin looks at it (assignByRoundRobin checks).
    unassigned = !created;
    if (!contactId) throw new Error('touch_contact returned no contact');
  }

  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, media_id, media_mime,
                                    media_filename, reply_to, status, raw, created_at, status_at)
     VALUES ($1, 'in', $2, $3, $4, $5, $6, $7, $8, 'received', $9::jsonb, $10, $10)
     ON CONFLICT (wa_message_id) DO NOTHING
     RETURNING id`,
    [
      contactId,
      message.waMessageId,
      message.kind,
      message.body,
      message.media?.id ?? null,
      message.media?.mime ?? null,
      message.media?.filename ?? null,
      message.replyTo,
      JSON.stringify(message.raw),
      message.at.toISOString(),
    ],
  );
  const messageId = inserted.rows[0]?.id;
  if (!messageId) return null;

  const optOut = isOptOut(message.words);
  const conversation = await tx.query<{ opted_now: boolean }>(
    `INSERT INTO whatsapp_conversations AS c (contact_id, wa_id, last_message_id, last_message_at, last_direction,
       last_preview, last_inbound_at, unread_count, waiting_since, opted_out_at)
     VALUES ($1, $2, $3, $4, 'in', $5, $4, 1, $4, CASE WHEN $6 THEN now() END)
     ON CONFLICT (contact_id) DO UPDATE SET
       wa_id = EXCLUDED.wa_id,
       last_message_id = CASE WHEN EXCLUDED.last_message_at >= c.last_message_at THEN EXCLUDED.last_message_id ELSE c.last_message_id END,
       last_direction = CASE WHEN EXCLUDED.last_message_at >= c.last_message_at THEN 'in' ELSE c.last_direction END,
       last_preview = CASE WHEN EXCLUDED.last_message_at >= c.last_message_at THEN EXCLUDED.last_preview ELSE c.last_preview END,
       last_message_at = greatest(c.last_message_at, EXCLUDED.last_message_at),
       last_inbound_at = greatest(c.last_inbound_at, EXCLUDED.last_inbound_at),
       unread_count = c.unread_count + 1,
       waiting_since = CASE WHEN c.waiting_since IS NULL OR EXCLUDED.waiting_since < c.waiting_since
                            THEN EXCLUDED.waiting_since ELSE c.waiting_since END,
       opted_out_at = coalesce(c.opted_out_at, EXCLUDED.opted_out_at),
       updated_at = now()
     RETURNING (opted_out_at = now() AND $6) AS opted_now`,
    [contactId, message.from, messageId, message.at.toISOString(), previewOf(message.kind, message.body), optOut],
  );
  // Their message is activity with the person ("Última actividad"). An ad's referral is the
  // latest attribution, and the first one of a contact that a message without it created first
  // (the queue processes a conversation's first messages in any order).
  await tx.query(
    `UPDATE contacts SET last_activity_at = greatest(last_activity_at, now()),
       last_touch = CASE WHEN $2::jsonb IS NULL THEN last_touch ELSE touch_after(last_touch, $2::jsonb) END,
       first_touch = CASE WHEN $2::jsonb IS NOT NULL
                           AND first_touch = '{"utm_source": "whatsapp", "utm_medium": "mensaje"}'::jsonb
                          THEN $2::jsonb ELSE first_touch END
     WHERE id = $1`,
    [contactId, message.referral && !created ? JSON.stringify(touchOf(message)) : null],
  );
  if (conversation.rows[0]?.opted_now) await recordOptOut(tx, contactId, message.words);
  return { messageId, contactId, created, unassigned };
}

/** The history's line and the activity log's entry of an opt-out (src/data/whatsapp-opt-out.ts). */
async function recordOptOut(tx: Queryable, contactId: string, word: string): Promise<void> {
  const { rows } = await tx.query<{ name: string }>(
    `WITH event AS (
       INSERT INTO contact_events (contact_id, kind, to_value, detail)
       VALUES ($1, 'whatsapp_opt_out', $2, 'Pidió no recibir mensajes automáticos por WhatsApp')
     )
     SELECT name FROM contacts WHERE id = $1`,
    [contactId, word.trim().slice(0, 40)],
  );
  await recordActivity(tx, {
    actor: null,
    kind: 'whatsapp_opt_out',
    summary: `${rows[0]?.name ?? 'Un prospecto'} pidió no recibir mensajes automáticos por WhatsApp`,
    details: { contact: contactId },
  });
}

/**
 * A CTE after `reached` (the message of ours that just got its platform id:
 * its contact_id and automated): a person's message, not an automatic one,
 * ends the contact's response time (decision 0039), once, however its id
 * arrived (the send's answer, or a status echoing our id after its worker
 * died), in the same statement.
 */
const FIRST_REPLY = `replied AS (
  UPDATE contacts c SET first_replied_at = now() FROM reached r
  WHERE c.id = r.contact_id AND NOT r.automated AND c.first_replied_at IS NULL
  RETURNING c.id)`;

/**
 * A status of ours, forward only (sent < delivered < read < failed): a late
 * `delivered` never undoes `read`, a replay changes nothing. A status about a
 * message not known yet (its send's answer not committed, or sent from
 * elsewhere) is kept in whatsapp_pending_statuses and applied when it gets its
 * id (or found by biz_opaque_callback_data, our id). Both sides take the
 * platform id's advisory lock, so neither misses the other.
 */
export async function applyStatus(tx: Queryable, status: StatusUpdate): Promise<boolean> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 27))', [status.waMessageId]);
  const failed = status.status === 'failed';
  // The platform's own words (English) are for the log; the team reads errorReason's Spanish.
  if (failed) {
    logJson('warn', {
      event: 'whatsapp_status_failed',
      message: status.waMessageId.slice(0, 200),
      code: status.error?.code ?? null,
      title: status.error?.title?.slice(0, 300) ?? null,
    });
  }
  const values = [
    status.waMessageId,
    status.status,
    status.at.toISOString(),
    failed ? (status.error?.code ?? null) : null,
    failed ? errorReason(status.error?.code) : null,
  ];
  const moved = await tx.query<{ id: string }>(
    `UPDATE whatsapp_messages SET status = $2, status_at = $3, error_code = $4, error_reason = $5
     WHERE wa_message_id = $1 AND direction = 'out' AND whatsapp_status_rank(status) < whatsapp_status_rank($2)
     RETURNING id`,
    values,
  );
  if (moved.rows.length > 0) return true;
  const known = await tx.query('SELECT 1 FROM whatsapp_messages WHERE wa_message_id = $1', [status.waMessageId]);
  if (known.rows.length > 0) return false;
  // Ours, whose send's answer is not stored yet: the callback names it.
  if (isUuid(status.callback)) {
    const claimed = await tx.query<{ id: string }>(
      `WITH reached AS (
         UPDATE whatsapp_messages SET wa_message_id = $6, status = CASE WHEN whatsapp_status_rank(status) < whatsapp_status_rank($2) THEN $2 ELSE status END,
           status_at = $3, error_code = $4, error_reason = $5, claimed_at = NULL
         WHERE id = $1::uuid AND direction = 'out' AND wa_message_id IS NULL
         RETURNING id, contact_id, automated
       ), ${FIRST_REPLY}
       SELECT id FROM reached`,
      [status.callback, ...values.slice(1), status.waMessageId],
    );
    if (claimed.rows.length > 0) return true;
  }
  await tx.query(
    `INSERT INTO whatsapp_pending_statuses (wa_message_id, status, callback, error_code, error_reason, at)
     VALUES ($1, $2, $6, $4, $5, $3) ON CONFLICT DO NOTHING`,
    [...values, status.callback],
  );
  return false;
}

/**
 * A message of ours just accepted by the platform: its id, and any status
 * that came before the answer, in the caller's transaction (under the same
 * lock as applyStatus).
 */
export async function acceptedAs(tx: Queryable, messageId: string, waMessageId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 27))', [waMessageId]);
  await tx.query(
    `WITH pending AS (
       DELETE FROM whatsapp_pending_statuses WHERE wa_message_id = $2
       RETURNING status, error_code, error_reason, at
     ), furthest AS (
       SELECT * FROM pending ORDER BY whatsapp_status_rank(status) DESC LIMIT 1
     ), reached AS (
       UPDATE whatsapp_messages m SET
         wa_message_id = $2,
         status = coalesce((SELECT status FROM furthest WHERE whatsapp_status_rank(status) > whatsapp_status_rank('sent')), 'sent'),
         status_at = coalesce((SELECT at FROM furthest WHERE whatsapp_status_rank(status) > whatsapp_status_rank('sent')), now()),
         error_code = (SELECT error_code FROM furthest WHERE status = 'failed'),
         error_reason = (SELECT error_reason FROM furthest WHERE status = 'failed'),
         claimed_at = NULL
       WHERE m.id = $1 AND m.wa_message_id IS NULL
       RETURNING m.contact_id, m.automated
     ), ${FIRST_REPLY}
     SELECT count(*) FROM reached`,
    [messageId, waMessageId],
  );
}
