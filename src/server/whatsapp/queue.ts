import { CUSTOMER_SERVICE_WINDOW_HOURS } from '../../lib/whatsapp/contract.ts';
import type { Database, Queryable } from '../db/database.ts';
import { withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { coalesced } from '../queue/coalesce.ts';

/** A stored delivery of the webhook to process (payload {eventId}). */
export const PROCESS_EVENT_TASK = 'whatsapp_process_event';
/** A message of ours to send (payload {messageId}). */
export const SEND_MESSAGE_TASK = 'whatsapp_send_message';
/** The day's automatic first replies ran out: tell the administrators (payload {day, sent}; limit-alert.ts). */
export const LIMIT_ALERT_TASK = 'whatsapp_first_reply_limit';

/** A buyer's choice from the free slots' list to book (payload {messageId}; booking.ts, decision 0063). */
export const BOOK_CHOICE_TASK = 'whatsapp_book_choice';

/** Sends tried before a message that keeps failing on the network or an outage is `failed`. */
export const SEND_MAX_ATTEMPTS = 8;

/**
 * Adds the jobs of events (keyed `wa-event:{id}`) in one add_jobs call: one
 * NOTIFY for the batch (decision 0030). `tx` may be a transaction or the pool.
 */
export async function scheduleEvents(db: Queryable, ids: readonly (string | number)[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `SELECT count(*) FROM graphile_worker.add_jobs(array(
       SELECT ROW($1::text, json_build_object('eventId', id), NULL, now(), 5, 'wa-event:' || id, NULL, NULL)::graphile_worker.job_spec
       FROM unnest($2::bigint[]) AS id))`,
    [PROCESS_EVENT_TASK, ids.map(String)],
  );
}

/** Adds the send jobs of messages of ours (keyed `wa-send:{id}`), due at once or at `runAt`. */
export async function scheduleSends(db: Queryable, ids: readonly string[], runAt: Date | null = null): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `SELECT count(*) FROM graphile_worker.add_jobs(array(
       SELECT ROW($1::text, json_build_object('messageId', id), NULL, coalesce($3::timestamptz, now()), $4::int,
                  'wa-send:' || id, NULL, NULL)::graphile_worker.job_spec
       FROM unnest($2::uuid[]) AS id))`,
    [SEND_MESSAGE_TASK, ids, runAt?.toISOString() ?? null, SEND_MAX_ATTEMPTS],
  );
}

/**
 * The booking jobs of their choices just stored (keyed `wa-book:{id}`), in
 * the transaction that stores the messages: a choice stored is never left
 * without its job, and a replay of the webhook stores (and adds) nothing.
 */
export async function scheduleChoices(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `SELECT count(*) FROM graphile_worker.add_jobs(array(
       SELECT ROW($1::text, json_build_object('messageId', id), NULL, now(), $3::int,
                  'wa-book:' || id, NULL, NULL)::graphile_worker.job_spec
       FROM unnest($2::uuid[]) AS id))`,
    [BOOK_CHOICE_TASK, ids, SEND_MAX_ATTEMPTS],
  );
}

/** A job to add after an answer: an event stored by the webhook, or a message of ours (a first reply). */
type Soon = { event: string } | { send: string };

const addSoon = coalesced<Soon>(async (batch) => {
  const events = batch.flatMap((item) => ('event' in item ? [item.event] : []));
  const sends = batch.flatMap((item) => ('send' in item ? [item.send] : []));
  try {
    await withDatabase(async (db) => {
      await scheduleEvents(db, events);
      await scheduleSends(db, sends);
    });
  } catch (error) {
    logJson('warn', {
      event: 'whatsapp_jobs_deferred',
      events: events.length,
      sends: sends.length,
      error: (error as Error).message,
    });
  }
});

/**
 * The jobs of events stored by the webhook's answers and of messages stored
 * by a lead (its first reply), added right after those answers, many at
 * once and one such transaction at a time (decision 0045). Never throws:
 * what is left without a job is queued by maintainWhatsapp within seconds.
 */
export function scheduleSoon(events: readonly (string | number)[], sends: readonly string[] = []): Promise<void> {
  return addSoon([...events.map((id) => ({ event: String(id) })), ...sends.map((id) => ({ send: id }))]);
}

/**
 * The conversations' part of the queue's upkeep: an event unprocessed 10 s
 * after it arrived, or a message of ours still `sending` 10 s after it was
 * stored, without a live job gets one; a buyer's choice whose booking job
 * gave up (its attempts spent on an outage) is tried again while the
 * customer service window it opened lasts; old processed events and
 * statuses that never found their message are purged.
 */
export async function maintainWhatsapp(db: Database): Promise<void> {
  const events = await db.query<{ id: string }>(
    `SELECT e.id FROM whatsapp_webhook_events e
     WHERE e.processed_at IS NULL AND e.received_at < now() - interval '10 seconds'
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'wa-event:' || e.id AND j.attempts < j.max_attempts)
     ORDER BY e.id LIMIT 1000`,
  );
  const sends = await db.query<{ id: string }>(
    `SELECT m.id FROM whatsapp_messages m
     WHERE m.status = 'sending' AND m.created_at < now() - interval '10 seconds'
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'wa-send:' || m.id AND j.attempts < j.max_attempts)
     LIMIT 500`,
  );
  // A choice's job is added with its message (scheduleChoices) and removed once it ran to an end (booked,
  // taken, gone or forged): one still there with its attempts spent failed on every try.
  const choices = await db.query<{ id: string }>(
    `SELECT m.id FROM graphile_worker.jobs j
     JOIN whatsapp_messages m ON m.id = substring(j.key FROM 9)::uuid
     WHERE j.key LIKE 'wa-book:%' AND j.attempts >= j.max_attempts AND j.locked_at IS NULL
       AND m.created_at > now() - make_interval(hours => $1)
     LIMIT 500`,
    [CUSTOMER_SERVICE_WINDOW_HOURS],
  );
  await scheduleChoices(
    db,
    choices.rows.map((row) => row.id),
  );
  if (events.rows.length > 0 || sends.rows.length > 0 || choices.rows.length > 0) {
    await scheduleEvents(
      db,
      events.rows.map((row) => row.id),
    );
    await scheduleSends(
      db,
      sends.rows.map((row) => row.id),
    );
    logJson('warn', {
      event: 'whatsapp_requeued',
      events: events.rows.length,
      sends: sends.rows.length,
      choices: choices.rows.length,
    });
  }
  await db.query(
    `DELETE FROM whatsapp_webhook_events WHERE id IN (
       SELECT id FROM whatsapp_webhook_events WHERE processed_at < now() - interval '30 days' LIMIT 5000)`,
  );
  await db.query(`DELETE FROM whatsapp_pending_statuses WHERE received_at < now() - interval '7 days'`);
}
