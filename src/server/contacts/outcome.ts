import { isClosed, STATE_LABELS } from '../../lib/admin/contacts.ts';
import { meridaDaysAhead } from '../../lib/admin/merida-time.ts';
import {
  type AttemptChannel,
  OUTCOMES,
  type Outcome,
  type OutcomeInput,
  type OutcomeSaved,
  stateAfter,
} from '../../lib/admin/outcomes.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { lockContact, writeFollowUp } from './change.ts';

/**
 * An attempt still waiting for its outcome: this member pressed Llamar or
 * WhatsApp on this contact within the hour and recorded no outcome since.
 * The outcome then tells how that attempt went instead of counting another.
 */
const OPEN_ATTEMPT_WINDOW = '1 hour';

/**
 * The outcome's line in the history, and one more attempt unless it tells how
 * an open attempt went, in one statement (the check sees the history as it
 * was before this line), which also reads what the answer needs of the row:
 * the attempts (counted, or as they were: a subquery sees the row as the
 * statement found it) and what writeFollowUp left.
 */
async function countAndRecord(
  tx: Queryable,
  id: string,
  actor: Actor,
  outcome: string,
  note: string | null,
): Promise<{ attempts: number; version: number; last_activity_at: Date }> {
  const { rows } = await tx.query<{ attempts: number; version: number; last_activity_at: Date }>(
    `WITH open_attempt AS (
       SELECT EXISTS (
         SELECT 1 FROM contact_events a
         WHERE a.contact_id = $1 AND a.kind = 'attempt' AND a.actor_id = $2
           AND a.created_at > now() - interval '${OPEN_ATTEMPT_WINDOW}'
           AND NOT EXISTS (SELECT 1 FROM contact_events o
                           WHERE o.contact_id = $1 AND o.kind = 'outcome' AND o.created_at >= a.created_at)
       ) AS open
     ), counted AS (
       UPDATE contacts SET attempts = attempts + 1 WHERE id = $1 AND NOT (SELECT open FROM open_attempt)
       RETURNING attempts
     ), line AS (
       INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value, detail)
       VALUES ($1, $2, $3, 'outcome', $4, $5)
     )
     SELECT coalesce((SELECT attempts FROM counted), c.attempts) AS attempts, c.version, c.last_activity_at
     FROM contacts c WHERE c.id = $1`,
    [id, actor.id, actor.name, outcome, note],
  );
  const row = rows[0];
  if (!row) throw new Error('the locked contact is gone');
  return row;
}

/**
 * Records an outcome (OUTCOMES, src/lib/admin/outcomes.ts): the outcome and
 * its note in the contact's history, the state it moves to, the next
 * contact (as sent, or the outcome's proposal) with its reminder, and one
 * more attempt unless it tells how an open attempt went; the activity log's
 * entry when the state changes. One transaction: all of it or none. The
 * answer is the follow-up it left, read in the transaction's last statement
 * (the panel reads the history's new lines with the contact when it shows
 * it: a card of Hoy or Prospectos needs none of them).
 */
export async function recordOutcome(
  db: Database,
  id: string,
  input: OutcomeInput,
  actor: Actor,
  now = new Date(),
): Promise<OutcomeSaved | 'not_found'> {
  const outcome: Outcome = OUTCOMES[input.outcome];
  return db.transaction(async (tx): Promise<OutcomeSaved | 'not_found'> => {
    const old = await lockContact(tx, id);
    if (!old) return 'not_found';
    const state = stateAfter(old.state, outcome);
    // A closed contact stays as it was closed (stateAfter): its reason kept, no next contact; the outcome is a
    // line of its history and an attempt.
    const lostReason =
      state !== 'cerrado_perdido'
        ? null
        : isClosed(old.state)
          ? old.lost_reason
          : (input.lostReason ?? outcome.lostReason ?? 'otro');
    const proposed = outcome.next ? meridaDaysAhead(outcome.next.days, outcome.next.time, now) : null;
    const asked =
      input.nextContactAt === undefined
        ? proposed
        : input.nextContactAt === null
          ? null
          : new Date(input.nextContactAt).toISOString();
    // None once closed (writeFollowUp).
    const next = await writeFollowUp(
      tx,
      id,
      old,
      { state, lostReason, next: asked, assignedTo: old.assigned_to, assignedName: old.assigned_name },
      actor,
    );
    const row = await countAndRecord(tx, id, actor, input.outcome, input.note || null);
    if (state !== old.state) {
      await recordActivity(tx, {
        actor,
        kind: 'state_change',
        summary: `Cambió el estado de ${old.name} a «${STATE_LABELS[state]}» («${outcome.label}»)`,
        details: { contact: id, state, outcome: input.outcome },
      });
    }
    // Lost with a visit still ahead: the buyer keeps it (and its reminders) until the adviser cancels it; the
    // answer says how many, so the panel can say so.
    const ahead =
      state === 'cerrado_perdido'
        ? await tx.query<{ count: number; others: number }>(
            `SELECT count(*)::int AS count, count(*) FILTER (WHERE a.member_id IS DISTINCT FROM $2)::int AS others
             FROM appointments a
             WHERE a.contact_id = $1 AND a.starts_at > now()
               AND (a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))`,
            [id, actor.id],
          )
        : null;
    return {
      id,
      state,
      lostReason,
      nextContactAt: next,
      appointmentsAhead: ahead?.rows[0]?.count ?? 0,
      appointmentsAheadOfOthers: ahead?.rows[0]?.others ?? 0,
      attempts: row.attempts,
      version: row.version,
      lastActivityAt: new Date(row.last_activity_at).toISOString(),
    };
  });
}

/**
 * Llamar or WhatsApp pressed: one more attempt and its line in the history,
 * in one statement (atomic without a transaction). False when there is no
 * such contact.
 */
export async function recordAttempt(
  db: Queryable,
  id: string,
  channel: AttemptChannel,
  actor: Actor,
): Promise<boolean> {
  const { rows } = await db.query<{ contact_id: string }>(
    `WITH counted AS (UPDATE contacts SET attempts = attempts + 1 WHERE id = $1 RETURNING id)
     INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value)
     SELECT id, $2, $3, 'attempt', $4 FROM counted
     RETURNING contact_id`,
    [id, actor.id, actor.name, channel],
  );
  return rows.length > 0;
}
