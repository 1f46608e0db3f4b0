import type { Queryable } from '../db/database.ts';
import type { AppointmentChange, ChangeActor } from './change-kinds.ts';
import { contactMove } from './pipeline-moves.ts';
import { refundOnCancel } from './refunds.ts';

/**
 * What happened to an appointment, told once to whatever follows it (issue
 * #40): every place that books, moves, cancels or marks an appointment
 * calls appointmentChanged() inside its own transaction, after its row is
 * written. The buyer's messages (confirmation with its .ics, reminders 24 h
 * and 2 h before, the notice of a move or a cancellation) and the adviser's
 * notice and reminder are queued here, in that same transaction, so a change
 * that is rolled back sends nothing (decision 0060). Jobs only: this module
 * stays light (no mail, push or calendar library), the worker sends
 * (messages.ts).
 */
export type { AppointmentChange, ChangeActor } from './change-kinds.ts';

/** The queue's task that sends one message about an appointment (messages.ts runAppointmentMessage). */
export const APPOINTMENT_MESSAGE_TASK = 'appointment_message';

/**
 * What a message says: the booking's confirmation, a move, a cancellation, a
 * reminder before the start, its payment; and, to the adviser a move took it
 * from, that it is handed over (theirs no longer).
 */
export type AppointmentMessageKind = 'confirmation' | 'moved' | 'cancelled' | 'reminder' | 'paid' | 'handedOver';
/** The messages a buyer may get (a hand-over is the team's). */
export type BuyerMessageKind = Exclude<AppointmentMessageKind, 'handedOver'>;
export type AppointmentMessageChannel = 'whatsapp' | 'email' | 'push';

/** A job's payload: one message, to one person, through one channel. */
export interface AppointmentMessageJob {
  appointmentId: string;
  to: 'buyer' | 'adviser';
  channel: AppointmentMessageChannel;
  message: AppointmentMessageKind;
  /**
   * The start (milliseconds) the message was queued for. When the job runs,
   * an appointment that starts at another time (moved since) or no longer
   * holds its time (cancelled, an unpaid hold gone) makes it stale: it sends
   * nothing, so a move or a cancellation deletes no job.
   */
  start: number;
  /** A reminder's hours before the start. */
  hoursBefore?: number;
  /** The adviser a message is for when not the appointment's own: a hand-over's, the member it was taken from. */
  memberId?: string;
  /**
   * The calendar file's sequence of a move's notice, part of its key: a move
   * back to a time told before (A to B, B to C, C to B) is told again.
   */
  sequence?: number;
}

/** The buyer's reminders, in hours before the start (WhatsApp and, when they gave one, e-mail). */
export const BUYER_REMINDER_HOURS = [24, 2] as const;
/** The adviser's reminder, in hours before the start (e-mail and push). */
export const ADVISER_REMINDER_HOURS = [1] as const;

/** Tries of one message: graphile-worker waits e^n seconds between them (about 50 minutes in all). */
export const APPOINTMENT_MESSAGE_ATTEMPTS = 8;

const MESSAGE_OF: Partial<Record<AppointmentChange['kind'], AppointmentMessageKind>> = {
  booked: 'confirmation',
  rescheduled: 'moved',
  cancelled: 'cancelled',
  paid: 'paid',
};

/** One job's key: a message queued twice for the same start (a move there and back) is one job. */
export function messageJobKey(job: AppointmentMessageJob): string {
  const sequence = job.sequence === undefined ? '' : `:${job.sequence}`;
  return `appt:${job.appointmentId}:${job.to}:${job.channel}:${job.message}:${job.hoursBefore ?? 0}:${Math.round(job.start / 1000)}${sequence}`;
}

/** What the messages of a change read of its appointment once it is written. */
export interface AppointmentFacts {
  /** Its start, in milliseconds. */
  start: number;
  memberId: string | null;
  source: string;
  /** The calendar file's sequence after the change (raiseSequence); none for a booking's own facts. */
  sequence?: number;
}

/**
 * Tells what follows an appointment that `change` happened to (see above), in
 * the caller's transaction: the pipeline's move, the refund of a cancelled
 * paid one, the calendar file's sequence, the messages' jobs. `booked`, the
 * facts of a booking's own row when the caller has them (book.ts): a
 * confirmation does not raise the sequence, so nothing needs reading.
 */
export async function appointmentChanged(
  tx: Queryable,
  appointmentId: string,
  change: AppointmentChange,
  actor: ChangeActor,
  booked?: AppointmentFacts,
): Promise<void> {
  // The pipeline follows the visit (visita_agendada, visito: decision 0062), in the statement that queues the jobs.
  const move = contactMove(change.kind, actor);
  // A paid appointment cancelled: its refund, as the kind's policy says (issue #41).
  if (change.kind === 'cancelled') await refundOnCancel(tx, appointmentId, actor);
  const message = MESSAGE_OF[change.kind];
  // "Asistió" / "No asistió" tell nobody (the follow-up of a no-show is the panel's).
  const facts =
    message === undefined
      ? null
      : message === 'confirmation' && booked
        ? booked
        : await raiseSequence(tx, appointmentId, message);
  const moveValues = move ? [appointmentId, ...move.values] : [];
  if (!message || !facts) {
    if (move) await tx.query(`WITH ${move.ctes} SELECT count(*) FROM old`, moveValues);
    return;
  }
  // A move that gave the appointment to another member: the one it was taken from is told it is no longer theirs.
  const handedFrom =
    change.kind === 'rescheduled' && change.previousMemberId && change.previousMemberId !== facts.memberId
      ? change.previousMemberId
      : null;
  const jobs = messageJobs(appointmentId, message, facts, actor, handedFrom);
  // One statement, one NOTIFY; a reminder whose time has already passed (booked 3 h ahead) is not queued.
  const at = moveValues.length + 1;
  await tx.query(
    `${move ? `WITH ${move.ctes} ` : ''}SELECT count(*) FROM graphile_worker.add_jobs(array(
       SELECT ROW($${at}::text, j.payload, NULL, coalesce(j.at, now()), $${at + 1}::int, j.key, NULL, NULL)::graphile_worker.job_spec
       FROM jsonb_to_recordset($${at + 2}::jsonb) AS j (payload json, at timestamptz, key text)
       WHERE j.at IS NULL OR j.at > now()))`,
    [
      ...moveValues,
      APPOINTMENT_MESSAGE_TASK,
      APPOINTMENT_MESSAGE_ATTEMPTS,
      JSON.stringify(
        jobs.map(({ job, at }) => ({
          payload: job,
          at: at === null ? null : new Date(at).toISOString(),
          key: messageJobKey(job),
        })),
      ),
    ],
  );
}

/**
 * A calendar that holds the event replaces it only when its SEQUENCE grows
 * (RFC 5546): raised for every message but the first. The appointment's
 * facts, or null when it is gone.
 */
async function raiseSequence(
  tx: Queryable,
  appointmentId: string,
  message: AppointmentMessageKind,
): Promise<AppointmentFacts | null> {
  const { rows } = await tx.query<{
    starts_at: string;
    member_id: string | null;
    source: string;
    calendar_sequence: number;
  }>(
    `UPDATE appointments SET calendar_sequence = calendar_sequence + CASE WHEN $2 THEN 1 ELSE 0 END
     WHERE id = $1 RETURNING extract(epoch FROM starts_at) * 1000 AS starts_at, member_id, source, calendar_sequence`,
    [appointmentId, message !== 'confirmation'],
  );
  const row = rows[0];
  return row
    ? { start: Number(row.starts_at), memberId: row.member_id, source: row.source, sequence: row.calendar_sequence }
    : null;
}

/** The jobs of one message: to the buyer and the adviser, through each channel, and the reminders it schedules. */
function messageJobs(
  appointmentId: string,
  message: AppointmentMessageKind,
  { start, memberId, source, sequence }: AppointmentFacts,
  actor: ChangeActor,
  handedFrom: string | null = null,
): { job: AppointmentMessageJob; at: number | null }[] {
  const jobs: { job: AppointmentMessageJob; at: number | null }[] = [];
  // A move's notices are told once per move, a reminder once per time it is for.
  const told = message === 'moved' && sequence !== undefined ? { sequence } : {};
  const add = (job: Omit<AppointmentMessageJob, 'appointmentId' | 'start'>, at: number | null = null) =>
    jobs.push({ job: { appointmentId, start, ...(at === null ? told : {}), ...job }, at });

  // A booking made in the conversation is confirmed there at once, in words (whatsapp/booking.ts): no template too.
  // A payment is told by e-mail (its calendar file becomes CONFIRMED) and to the adviser: no paid template.
  if (!(message === 'confirmation' && source === 'whatsapp') && message !== 'paid')
    add({ to: 'buyer', channel: 'whatsapp', message });
  add({ to: 'buyer', channel: 'email', message });
  // The adviser who made the change knows it already.
  const byTheirAdviser = actor.by === 'member' && actor.memberId === memberId;
  if (!byTheirAdviser) {
    add({ to: 'adviser', channel: 'email', message });
    add({ to: 'adviser', channel: 'push', message });
  }
  if (handedFrom && !(actor.by === 'member' && actor.memberId === handedFrom)) {
    add({ to: 'adviser', channel: 'email', message: 'handedOver', memberId: handedFrom });
    add({ to: 'adviser', channel: 'push', message: 'handedOver', memberId: handedFrom });
  }
  if (message === 'confirmation' || message === 'moved') {
    for (const hoursBefore of BUYER_REMINDER_HOURS) {
      for (const channel of ['whatsapp', 'email'] as const) {
        add({ to: 'buyer', channel, message: 'reminder', hoursBefore }, start - hoursBefore * 3_600_000);
      }
    }
    for (const hoursBefore of ADVISER_REMINDER_HOURS) {
      for (const channel of ['email', 'push'] as const) {
        add({ to: 'adviser', channel, message: 'reminder', hoursBefore }, start - hoursBefore * 3_600_000);
      }
    }
  }
  return jobs;
}
