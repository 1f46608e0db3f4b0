import { TOUCH_KEYS } from '../../lib/admin/attribution.ts';
import { CALL_KIND, type CallDetail, type CallSummary, type CallsPage, type CallTurn } from '../../lib/voice/calls.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import type { Database, Queryable } from '../db/database.ts';
import { CONTACT_WITH_NOTHING_LEFT } from '../leads/kinds.ts';
import { enqueueLeadNotifications, scheduleDeliveries } from '../outbox/queue.ts';
import type { CallReport } from './report.ts';
import { touchContact } from './touch.ts';

export interface StoredCall {
  id: string;
  /** false for a report of a call stored before (the platform may send it again). */
  created: boolean;
  contactId: string | null;
  deliveries: string[];
}

/**
 * Stores a call's end-of-call report once per call id, in one transaction:
 * the call (the row its first live message made, completed, or a new one);
 * when the call has no contact yet and the visitor gave a phone, the
 * contact it joins (or creates), which its timeline then shows, and the
 * call's notifications, like any lead. What the agent's tools stored during
 * the call stands (issue #42): a contact already joined is not touched
 * again nor notified twice, and the person's data the tools kept wins over
 * the report's. A replay, even concurrent, waits on the call id's key and
 * stores nothing.
 */
export async function storeCall(db: Database, report: CallReport): Promise<StoredCall> {
  return db.transaction(async (tx) => {
    const attribution = Object.fromEntries(TOUCH_KEYS.map((key) => [key, report.metadata[key as 'referrer'] ?? null]));
    const kept = (column: string) => `${column} = coalesce(voice_calls.${column}, EXCLUDED.${column})`;
    const inserted = await tx.query<{ id: string; contact_id: string | null }>(
      `INSERT INTO voice_calls (call_id, started_at, ended_at, duration_seconds, ended_reason, summary, transcript,
         messages, recording_url, structured, name, phone, email, interest, cost, page_path,
         ${TOUCH_KEYS.join(', ')}, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
         ${TOUCH_KEYS.map((_, index) => `$${index + 17}`).join(', ')}, now())
       ON CONFLICT (call_id) DO UPDATE SET started_at = EXCLUDED.started_at, ended_at = EXCLUDED.ended_at,
         duration_seconds = EXCLUDED.duration_seconds, ended_reason = coalesce(EXCLUDED.ended_reason, voice_calls.ended_reason),
         summary = EXCLUDED.summary, transcript = EXCLUDED.transcript, messages = EXCLUDED.messages,
         recording_url = EXCLUDED.recording_url, structured = EXCLUDED.structured, cost = EXCLUDED.cost,
         ${['name', 'phone', 'email', 'interest', 'page_path', ...TOUCH_KEYS].map(kept).join(', ')},
         reported_at = now()
       WHERE voice_calls.reported_at IS NULL
       RETURNING id, contact_id`,
      [
        report.callId,
        report.startedAt,
        report.endedAt,
        report.durationSeconds,
        report.endedReason,
        report.summary,
        report.transcript,
        JSON.stringify(report.messages),
        report.recordingUrl,
        report.structured === null ? null : JSON.stringify(report.structured),
        report.name,
        report.phone,
        report.email,
        report.interest,
        report.cost,
        report.metadata.page ?? null,
        ...TOUCH_KEYS.map((key) => attribution[key]),
      ],
    );
    const call = inserted.rows[0];
    if (!call) {
      const { rows } = await tx.query<{ id: string; contact_id: string | null }>(
        'SELECT id, contact_id FROM voice_calls WHERE call_id = $1',
        [report.callId],
      );
      const first = rows[0] as { id: string; contact_id: string | null };
      return { id: first.id, created: false, contactId: first.contact_id, deliveries: [] };
    }
    // Joined during the call by the agent's tools: its lead was stored and notified then.
    if (call.contact_id) return { id: call.id, created: true, contactId: call.contact_id, deliveries: [] };
    if (!report.phone) return { id: call.id, created: true, contactId: null, deliveries: [] };

    const contactId = await touchContact(tx, {
      phone: report.phone,
      name: report.name,
      email: report.email,
      municipality: null,
      kind: 'comprador',
      row: attribution,
    });
    const deliveries = await attachCall(tx, report.callId, contactId, { ...report, phone: report.phone });
    return { id: call.id, created: true, contactId, deliveries };
  });
}

/**
 * The call joins its contact, once: the first time (the call's row had no
 * contact) the call is the contact's lead and its notifications are queued;
 * later, only what was missing is filled in. In the caller's transaction:
 * the agent's tools (tools.ts) and a report of a call they never joined.
 */
export async function attachCall(
  tx: Queryable,
  callId: string,
  contactId: string,
  person: { name: string | null; phone: string; email: string | null; interest?: string | null },
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string; before: string | null }>(
    `UPDATE voice_calls v SET contact_id = coalesce(before.contact_id, $2), name = coalesce($3, v.name),
       phone = coalesce(v.phone, $4), email = coalesce($5, v.email), interest = coalesce($6, v.interest)
     FROM (SELECT id, contact_id FROM voice_calls WHERE call_id = $1 FOR UPDATE) AS before
     WHERE v.id = before.id
     RETURNING v.id, before.contact_id AS before`,
    [callId, contactId, person.name, person.phone, person.email, person.interest ?? null],
  );
  const row = rows[0];
  if (!row || row.before !== null) return [];
  return enqueueLeadNotifications(tx, CALL_KIND, row.id, contactId);
}

/**
 * The person corrected their number during the call (the agent stores them
 * again with another phone): the call, their lead, moves to the contact of
 * the number they gave last, with the call's notifications (those sent with
 * the wrong number go again, with the right one). The contact the wrong
 * number made goes when nothing else of its own is left (a stranger's
 * contact, or one with a visit booked before the correction, stays).
 * Returns the deliveries to hurry.
 */
export async function moveCall(
  tx: Queryable,
  callId: string,
  contactId: string,
  person: { name: string | null; phone: string; email: string | null; interest?: string | null },
): Promise<string[]> {
  const { rows } = await tx.query<{ id: string; before: string }>(
    `UPDATE voice_calls v SET contact_id = $2, phone = $4, name = coalesce($3, v.name), email = coalesce($5, v.email),
       interest = coalesce($6, v.interest)
     FROM (SELECT id, contact_id FROM voice_calls WHERE call_id = $1 FOR UPDATE) AS before
     WHERE v.id = before.id AND before.contact_id IS NOT NULL AND before.contact_id <> $2
     RETURNING v.id, before.contact_id AS before`,
    [callId, contactId, person.name, person.phone, person.email, person.interest ?? null],
  );
  const moved = rows[0];
  if (!moved) return [];
  const { rows: again } = await tx.query<{ id: string }>(
    `UPDATE notification_deliveries
     SET contact_id = $2,
         status = CASE WHEN status = 'sent' THEN 'pending' ELSE status END,
         attempts = CASE WHEN status = 'sent' THEN 0 ELSE attempts END,
         sent_at = CASE WHEN status = 'sent' THEN NULL ELSE sent_at END,
         updated_at = now()
     WHERE purpose = 'lead' AND lead_id = $1
     RETURNING id, status`,
    [moved.id, contactId],
  );
  await tx.query(`DELETE FROM contacts c WHERE c.id = $1 AND ${CONTACT_WITH_NOTHING_LEFT}`, [moved.before]);
  const deliveries = again.map((row) => row.id);
  await scheduleDeliveries(tx, deliveries, null);
  return deliveries;
}

interface ExportColumns {
  interest: string | null;
  email: string | null;
  page_path: string | null;
  recording_url: string | null;
}

interface CallRow {
  id: string;
  call_id: string;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
  duration_seconds: string | null;
  ended_reason: string | null;
  summary: string | null;
  name: string | null;
  phone: string | null;
  contact_id: string | null;
  contact_name: string | null;
  in_progress: boolean;
}

const SUMMARY_COLUMNS = `v.id, v.call_id, v.created_at, v.started_at, v.ended_at, v.duration_seconds, v.ended_reason,
  v.summary, v.name, v.phone, v.contact_id, c.name AS contact_name,
  (v.reported_at IS NULL AND v.status IS DISTINCT FROM 'ended') AS in_progress`;

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function toSummary(row: CallRow): CallSummary {
  return {
    id: row.id,
    callId: row.call_id,
    at: new Date(row.created_at).toISOString(),
    startedAt: iso(row.started_at),
    durationSeconds: row.duration_seconds === null ? null : Number(row.duration_seconds),
    endedReason: row.ended_reason,
    summary: row.summary,
    name: row.name,
    phone: row.phone,
    contactId: row.contact_id,
    contactName: row.contact_name,
    inProgress: row.in_progress,
  };
}

/**
 * Calls after `cursor` in time order: newest first for the list, oldest first
 * for the export (new calls then land after the end, nobody is skipped).
 */
export async function callsAfter(
  db: Queryable,
  cursor: Cursor | null,
  limit: number,
  order: 'newest' | 'oldest' = 'newest',
): Promise<(CallRow & ExportColumns & { cursor_at: string })[]> {
  const [direction, comparison] = order === 'newest' ? ['DESC', '<'] : ['ASC', '>'];
  const { rows } = await db.query<CallRow & ExportColumns & { cursor_at: string }>(
    `SELECT ${SUMMARY_COLUMNS}, v.interest, v.email, v.page_path, v.recording_url, ${cursorTime('v.created_at')}
     FROM voice_calls v LEFT JOIN contacts c ON c.id = v.contact_id
     WHERE $1::timestamptz IS NULL OR (v.created_at, v.id) ${comparison} ($1::timestamptz, $2::uuid)
     ORDER BY v.created_at ${direction}, v.id ${direction} LIMIT $3`,
    [cursor?.at ?? null, cursor?.id ?? null, limit],
  );
  return rows;
}

/** A page of the list, newest first. */
export async function listCalls(db: Queryable, cursor: Cursor | null, limit = 50): Promise<CallsPage> {
  const rows = await callsAfter(db, cursor, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toSummary),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** One call with its conversation, or null. */
export async function getCall(db: Queryable, id: string): Promise<CallDetail | null> {
  const { rows } = await db.query<
    CallRow & {
      email: string | null;
      interest: string | null;
      transcript: string | null;
      messages: CallTurn[];
      recording_url: string | null;
      structured: Record<string, unknown> | null;
      page_path: string | null;
      cost: string | null;
      attribution: Record<string, string | null>;
    }
  >(
    `SELECT ${SUMMARY_COLUMNS}, v.email, v.interest, v.transcript, v.messages, v.recording_url, v.structured,
            v.page_path, v.cost,
            jsonb_build_object('utm_source', v.utm_source, 'utm_medium', v.utm_medium, 'utm_campaign', v.utm_campaign,
              'utm_term', v.utm_term, 'utm_content', v.utm_content, 'referrer', v.referrer,
              'landing_path', v.landing_path) AS attribution
     FROM voice_calls v LEFT JOIN contacts c ON c.id = v.contact_id WHERE v.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ...toSummary(row),
    endedAt: iso(row.ended_at),
    email: row.email,
    interest: row.interest,
    transcript: row.transcript,
    messages: row.messages,
    recordingUrl: row.recording_url?.startsWith('https://') ? row.recording_url : null,
    structured: row.structured,
    page: row.page_path,
    attribution: Object.fromEntries(
      Object.entries(row.attribution).filter((entry): entry is [string, string] => Boolean(entry[1])),
    ),
    cost: row.cost === null ? null : Number(row.cost),
  };
}

/** The calls of one contact, for its timeline. */
export async function callsOfContact(db: Queryable, contactId: string): Promise<CallSummary[]> {
  const { rows } = await db.query<CallRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM voice_calls v LEFT JOIN contacts c ON c.id = v.contact_id
     WHERE v.contact_id = $1 ORDER BY v.created_at`,
    [contactId],
  );
  return rows.map(toSummary);
}

/**
 * What happened during the contact's calls (issue #42): the platform's
 * status updates and the agent's tool calls with the answer it read aloud
 * (what it read between brackets, for itself, left out), oldest first.
 */
export async function callLinesOfContact(
  db: Queryable,
  contactId: string,
): Promise<{ kind: 'status' | 'tool'; name: string; result: string | null; at: string }[]> {
  const { rows } = await db.query<{ kind: 'status' | 'tool'; name: string; result: string | null; created_at: Date }>(
    `SELECT e.kind, e.name, e.result, e.created_at
     FROM voice_call_events e JOIN voice_calls v ON v.call_id = e.call_id
     WHERE v.contact_id = $1 ORDER BY e.created_at, e.id`,
    [contactId],
  );
  return rows.map((row) => ({
    kind: row.kind,
    name: row.name,
    result: row.kind === 'tool' && row.result ? row.result.replace(/\s*\[[^\]]*\]/g, '') : row.result,
    at: new Date(row.created_at).toISOString(),
  }));
}
