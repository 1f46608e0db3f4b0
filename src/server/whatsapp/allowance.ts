import { findTemplate } from '../../lib/whatsapp/templates.ts';
import type { ServerConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { LIMIT_ALERT_TASK } from './queue.ts';

/**
 * The day's allowance of automatic templates (issue #38, decisions 0049 and
 * 0068), one per purpose: first replies to new leads
 * (WHATSAPP_FIRST_REPLY_DAILY_LIMIT) and appointments' confirmations,
 * reminders and notices (WHATSAPP_APPOINTMENT_DAILY_LIMIT), each for the
 * whole site, per day of Mérida, kept where messages are sent (the queue's
 * send job), never in a lead's statement. A template takes one when its send
 * first runs; over the limit it is held for an adviser, and the day's first
 * one held of each purpose tells the administrators by e-mail.
 */
export type AllowancePurpose = 'first_reply' | 'appointment';

/** An automatic template's purpose, by its key: an appointment's message (`appt:`), or a first reply (any other). */
export function allowancePurpose(idempotencyKey: string | null): AllowancePurpose {
  return idempotencyKey?.startsWith('appt:') ? 'appointment' : 'first_reply';
}

/** The day's limit of a purpose. */
export function allowanceLimit(
  whatsapp: { firstReplyDailyLimit: number; appointmentDailyLimit: number },
  purpose: AllowancePurpose,
): number {
  return purpose === 'appointment' ? whatsapp.appointmentDailyLimit : whatsapp.firstReplyDailyLimit;
}

/** Today in Mérida, in SQL (the day of the allowance). */
const MERIDA_TODAY = `(now() AT TIME ZONE 'America/Merida')::date`;

/** What a held first reply says on the message, in the conversation. */
export const HELD_REASON =
  'No se envió: hoy ya se enviaron todos los mensajes automáticos de este tipo permitidos (límite diario). Escríbele tú desde aquí con una plantilla.';

/**
 * Takes one of today's allowance for `messageId`, once: counted and checked
 * in one statement (the day's row is locked by the increment, so two sends at
 * once never both take the last one). False: today's allowance is spent.
 */
export async function takeAllowance(
  db: Queryable,
  messageId: string,
  limit: number,
  purpose: AllowancePurpose,
): Promise<boolean> {
  const { rows } = await db.query(
    `WITH slot AS (
       INSERT INTO whatsapp_allowance_days AS d (day, purpose, sent) VALUES (${MERIDA_TODAY}, $3, 1)
       ON CONFLICT (day, purpose) DO UPDATE SET sent = d.sent + 1 WHERE d.sent < $2
       RETURNING day)
     UPDATE whatsapp_messages m SET allowance_day = slot.day FROM slot WHERE m.id = $1 RETURNING m.id`,
    [messageId, limit, purpose],
  );
  return rows.length > 0;
}

/**
 * One of today's team notices by WhatsApp (each a paid template to the sales
 * number: a new lead's, a test's), counted and checked in one statement, as
 * takeAllowance does for a message (migration 0052). False: today's are spent.
 */
export async function takeNoticeAllowance(db: Queryable, limit: number): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO whatsapp_allowance_days AS d (day, purpose, sent) VALUES (${MERIDA_TODAY}, 'lead_notice', 1)
     ON CONFLICT (day, purpose) DO UPDATE SET sent = d.sent + 1 WHERE d.sent < $1
     RETURNING day`,
    [limit],
  );
  return rows.length > 0;
}

/**
 * An automatic template over today's limit of its purpose: `held` (never
 * sent; the conversation shows why, and the contact's history says an
 * adviser writes instead). The day's first one held of the purpose queues the
 * job that e-mails the administrators (limit-alert.ts), in the same
 * transaction: once a day, never lost.
 */
export async function holdAutomatic(
  db: Database,
  messageId: string,
  config: ServerConfig,
  purpose: AllowancePurpose,
): Promise<void> {
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
      `UPDATE whatsapp_allowance_days SET alerted_at = now()
       WHERE day = ${MERIDA_TODAY} AND purpose = $1 AND alerted_at IS NULL RETURNING day::text, sent`,
      [purpose],
    );
    const reached = day.rows[0];
    if (!reached) return false;
    // The first replies' job key as before 0068 (a job queued by the release before keeps its key).
    await tx.query(
      `SELECT graphile_worker.add_job($1, json_build_object('day', $2::text, 'sent', $3::int, 'purpose', $4::text),
         job_key => 'wa-limit:' || CASE WHEN $4 = 'first_reply' THEN '' ELSE $4 || ':' END || $2)`,
      [LIMIT_ALERT_TASK, reached.day, reached.sent, purpose],
    );
    return true;
  });
  // Once a day in the log too (each held reply shows in its conversation).
  if (alerted)
    logJson('warn', {
      event: purpose === 'first_reply' ? 'whatsapp_first_reply_limit_reached' : 'whatsapp_appointment_limit_reached',
      limit: config.whatsapp ? allowanceLimit(config.whatsapp, purpose) : null,
    });
}
