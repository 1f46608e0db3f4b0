import { findTemplate } from '../../lib/whatsapp/templates.ts';
import type { ServerConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { LIMIT_ALERT_TASK } from './queue.ts';

/**
 * The day's allowance of automatic first replies (issue #38, decision 0049):
 * WHATSAPP_FIRST_REPLY_DAILY_LIMIT for the whole site, per day of Mérida,
 * kept where messages are sent (the queue's send job), never in a lead's
 * statement. A first reply takes one when its send first runs; over the
 * limit it is held for an adviser, and the day's first one held tells the
 * administrators by e-mail.
 */

/** Today in Mérida, in SQL (the day of the allowance). */
const MERIDA_TODAY = `(now() AT TIME ZONE 'America/Merida')::date`;

/** What a held first reply says on the message, in the conversation. */
export const HELD_REASON =
  'No se envió: hoy ya se enviaron todas las respuestas automáticas permitidas (límite diario). Escríbele tú desde aquí con una plantilla.';

/**
 * Takes one of today's allowance for `messageId`, once: counted and checked
 * in one statement (the day's row is locked by the increment, so two sends at
 * once never both take the last one). False: today's allowance is spent.
 */
export async function takeAllowance(db: Queryable, messageId: string, limit: number): Promise<boolean> {
  const { rows } = await db.query(
    `WITH slot AS (
       INSERT INTO whatsapp_first_reply_days AS d (day, sent) VALUES (${MERIDA_TODAY}, 1)
       ON CONFLICT (day) DO UPDATE SET sent = d.sent + 1 WHERE d.sent < $2
       RETURNING day)
     UPDATE whatsapp_messages m SET allowance_day = slot.day FROM slot WHERE m.id = $1 RETURNING m.id`,
    [messageId, limit],
  );
  return rows.length > 0;
}

/**
 * A first reply over today's limit: `held` (never sent; the conversation
 * shows why, and the contact's history says an adviser writes instead). The
 * day's first one held queues the job that e-mails the administrators
 * (limit-alert.ts), in the same transaction: once a day, never lost.
 */
export async function holdFirstReply(db: Database, messageId: string, config: ServerConfig): Promise<void> {
  const alerted = await db.transaction(async (tx) => {
    const held = await tx.query<{ contact_id: string; first_reply: boolean; template_name: string | null }>(
      `UPDATE whatsapp_messages SET status = 'held', status_at = now(), error_reason = $2, claimed_at = NULL
       WHERE id = $1 AND status = 'sending'
       RETURNING contact_id, idempotency_key LIKE 'first-reply:%' AS first_reply, template_name`,
      [messageId, HELD_REASON],
    );
    const message = held.rows[0];
    if (!message) return false;
    const contactId = message.contact_id;
    if (message.first_reply) {
      await tx.query(
        `UPDATE contact_events SET kind = 'whatsapp_held' WHERE id = (
           SELECT id FROM contact_events
           WHERE contact_id = $1 AND kind = 'whatsapp_template' AND actor_id IS NULL AND actor_name IS NULL
           ORDER BY created_at, id LIMIT 1)`,
        [contactId],
      );
    } else {
      // Another automatic message (an appointment's, decision 0060): a line of its own, naming the template.
      await tx.query(
        `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'whatsapp_held', $2, $3)`,
        [contactId, findTemplate(message.template_name ?? '')?.label ?? message.template_name, message.template_name],
      );
    }
    const day = await tx.query<{ day: string; sent: number }>(
      `UPDATE whatsapp_first_reply_days SET alerted_at = now()
       WHERE day = ${MERIDA_TODAY} AND alerted_at IS NULL RETURNING day::text, sent`,
    );
    const reached = day.rows[0];
    if (!reached) return false;
    await tx.query(
      `SELECT graphile_worker.add_job($1, json_build_object('day', $2::text, 'sent', $3::int), job_key => 'wa-limit:' || $2)`,
      [LIMIT_ALERT_TASK, reached.day, reached.sent],
    );
    return true;
  });
  // Once a day in the log too (each held reply shows in its conversation).
  if (alerted)
    logJson('warn', {
      event: 'whatsapp_first_reply_limit_reached',
      limit: config.whatsapp?.firstReplyDailyLimit ?? null,
    });
}
