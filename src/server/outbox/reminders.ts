import { getConfig, type ServerConfig } from '../config.ts';
import type { Queryable } from '../db/database.ts';

// A contact's reminder job, which the changes of contacts move in their transaction;
// notifications/reminders.ts runs it.

/** The task that turns a due next contact into its reminders. */
export const REMINDER_TASK = 'contact_reminder';

const jobKey = (contactId: string) => `reminder:${contactId}`;

/** A reminder reaches someone beyond the panel's badge: e-mail or Web Push is configured. */
export const remindersOn = (config: ServerConfig): boolean =>
  config.notifications.email !== null || config.push !== null;

/**
 * Moves the contact's reminder to `at` (ISO), or removes it (null), inside
 * the change's transaction: a rolled-back change leaves the old job. With no
 * channel to remind through (no e-mail, no Web Push) no job is added: the
 * badge counts due contacts without one, and jobs that would only mark a
 * moment reminded no longer pile up in the queue. Once a channel is set, the
 * queue's upkeep gives a job to the moments come due in the last day.
 */
export async function scheduleReminder(
  tx: Queryable,
  contactId: string,
  at: string | null,
  config: ServerConfig = getConfig(),
): Promise<void> {
  if (at === null || !remindersOn(config)) {
    await tx.query(
      `SELECT graphile_worker.remove_job($1) WHERE EXISTS (SELECT 1 FROM graphile_worker.jobs WHERE key = $1)`,
      [jobKey(contactId)],
    );
    return;
  }
  await tx.query(
    `SELECT graphile_worker.add_job($1, json_build_object('contactId', $2::text), run_at => $3::timestamptz,
       max_attempts => 10, job_key => $4, job_key_mode => 'replace')`,
    [REMINDER_TASK, contactId, at, jobKey(contactId)],
  );
}
