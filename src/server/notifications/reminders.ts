import type { ServerConfig } from '../config.ts';
import { NEXT_CONTACT_DUE, OPEN_CONTACT, REMINDER_PENDING } from '../contacts/next-contact.ts';
import { contactNotice } from '../contacts/notice.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { scheduleDeliveries } from '../outbox/queue.ts';
import { scheduleReminder } from '../outbox/reminders.ts';

import type { ReminderMessage } from './render.ts';

// A next contact come due (issue #26, decision 0035): one graphile-worker job
// per contact, keyed by it, due at the next contact. Moving the next contact
// moves the job, clearing it (or closing the contact) removes it. When it
// runs, the contact is locked and marked reminded for that moment
// (`reminded_for`), and the reminder is queued once: an e-mail delivery to
// the member who follows it (administrators when nobody does) and one push
// per device they subscribed. No import of web-push here: the functions that
// change contacts schedule reminders and stay light (push.ts sends).

/** The task that sends one push to one device (push.ts). */
export const PUSH_TASK = 'push_reminder';

/** What a push job carries. */
export interface PushJob {
  subscriptionId: string;
  contactId: string;
  /** The next contact that came due (ISO). */
  at: string;
}

/** The members a contact's reminder goes to: who follows it if active, else every active administrator. */
const RECIPIENTS = `
  WITH assignee AS (
    SELECT u.id, u.email FROM users u JOIN contacts c ON c.assigned_to = u.id
    WHERE c.id = $1 AND u.deactivated_at IS NULL
  )
  SELECT id, email FROM assignee
  UNION ALL
  SELECT u.id, u.email FROM users u JOIN user_roles r ON r.user_id = u.id
  WHERE r.role = 'admin' AND u.deactivated_at IS NULL AND NOT EXISTS (SELECT 1 FROM assignee)`;

/**
 * The reminder job: queues the contact's reminders if its next contact is
 * due, still open and not reminded for that moment; otherwise nothing (it
 * was moved, cleared or closed: its new job, if any, does the work).
 * Returns how many messages were queued.
 */
export async function runReminder(db: Database, contactId: string, config: ServerConfig): Promise<number> {
  const emailOn = config.notifications.email !== null;
  const pushOn = config.push !== null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ at: Date }>(
      `UPDATE contacts c SET reminded_for = c.next_contact_at
       WHERE c.id = $1 AND ${NEXT_CONTACT_DUE} AND ${REMINDER_PENDING}
       RETURNING c.next_contact_at AS at`,
      [contactId],
    );
    const due = rows[0];
    if (!due) return 0;
    const recipients = (await tx.query<{ id: string; email: string }>(RECIPIENTS, [contactId])).rows;
    let queued = 0;
    if (emailOn && recipients.length > 0) {
      const deliveries = await tx.query<{ id: string }>(
        `INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id, remind_at)
         SELECT 'reminder', 'email', $1, recipient, $3 FROM unnest($2::uuid[]) AS recipient
         ON CONFLICT DO NOTHING RETURNING id`,
        [contactId, recipients.map((member) => member.id), due.at],
      );
      await scheduleDeliveries(
        tx,
        deliveries.rows.map((row) => row.id),
        null,
      );
      queued += deliveries.rows.length;
    }
    if (pushOn && recipients.length > 0) {
      const pushes = await tx.query<{ jobs: number }>(
        `SELECT count(graphile_worker.add_job($1, json_build_object('subscriptionId', s.id, 'contactId', $2::text,
                  'at', $3::timestamptz), max_attempts => 5,
                  job_key => 'push:' || s.id || ':' || $2 || ':' || extract(epoch FROM $3::timestamptz)))::int AS jobs
         FROM push_subscriptions s WHERE s.user_id = ANY($4::uuid[])`,
        [PUSH_TASK, contactId, due.at, recipients.map((member) => member.id)],
      );
      queued += pushes.rows[0]?.jobs ?? 0;
    }
    logJson('info', { event: 'reminder_queued', contact: contactId, messages: queued });
    return queued;
  });
}

/**
 * A reminder whose member can no longer get it (deactivated since it was
 * queued, while its e-mail was being retried): the contact's reminders of
 * that moment go to whom RECIPIENTS names now (the administrators, or a new
 * adviser), unless it was moved, cleared or closed meanwhile. In the
 * caller's transaction, with the old delivery's removal.
 */
export async function remindOthers(tx: Queryable, contactId: string, at: Date): Promise<void> {
  const { rows } = await tx.query<{ id: string }>(
    `WITH recipients AS (${RECIPIENTS})
     INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id, remind_at)
     SELECT 'reminder', 'email', c.id, r.id, $2 FROM contacts c, recipients r
     WHERE c.id = $1 AND c.next_contact_at = $2 AND ${OPEN_CONTACT}
     ON CONFLICT DO NOTHING RETURNING id`,
    [contactId, at],
  );
  await scheduleDeliveries(
    tx,
    rows.map((row) => row.id),
    null,
  );
}

/**
 * The queue's upkeep (maintainQueue): a reminder come due in the last day
 * whose job is gone (a job that gave up, a next contact stored while no
 * channel was configured) gets one; older moments are not sent late, so
 * turning a channel on sends no flood of old reminders.
 */
export async function requeueLostReminders(db: Database): Promise<number> {
  const { rows } = await db.query<{ id: string; at: Date }>(
    `SELECT c.id, c.next_contact_at AS at FROM contacts c
     WHERE ${REMINDER_PENDING} AND c.next_contact_at <= now() AND c.next_contact_at > now() - interval '1 day'
       AND ${OPEN_CONTACT}
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j
                       WHERE j.key = 'reminder:' || c.id AND j.attempts < j.max_attempts)
     LIMIT 500`,
  );
  if (rows.length === 0) return 0;
  await db.transaction(async (tx) => {
    for (const row of rows) await scheduleReminder(tx, row.id, new Date(row.at).toISOString());
  });
  logJson('warn', { event: 'reminders_requeued', contacts: rows.length });
  return rows.length;
}

/** The e-mail's content of a reminder delivery; null when the contact or the member is gone (or deactivated). */
export async function reminderMessage(
  db: Queryable,
  contactId: string,
  recipientId: string,
  at: Date,
  site: string,
): Promise<ReminderMessage | null> {
  const { rows } = await db.query<{ name: string; phone: string; email: string }>(
    `SELECT c.name, c.phone, u.email FROM contacts c, users u WHERE c.id = $1 AND u.id = $2 AND u.deactivated_at IS NULL`,
    [contactId, recipientId],
  );
  const row = rows[0];
  return row ? { ...contactNotice(row, contactId, site), at: new Date(at).toISOString() } : null;
}
