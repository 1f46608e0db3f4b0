import type { Queryable } from '../db/database.ts';
import { moveContactForAppointment } from './pipeline-moves.ts';

/**
 * What happened to an appointment, told once to whatever follows it (issue
 * #40): every place that books, moves, cancels or marks an appointment
 * calls appointmentChanged() inside its own transaction, after its row is
 * written. The buyer's messages (confirmation with its .ics, reminders 24 h
 * and 2 h before, the notice of a move or a cancellation) and the adviser's
 * notice and reminder are queued here, in that same transaction, so a change
 * that is rolled back sends nothing.
 */
export type AppointmentChange =
  | { kind: 'booked' }
  | { kind: 'rescheduled'; previousStart: number }
  | { kind: 'cancelled' }
  | { kind: 'attended' }
  | { kind: 'no_show' };

/** Who made the change: the buyer (site, link, WhatsApp), a member of the team, or the system (an expired hold). */
export type ChangeActor = { by: 'buyer' } | { by: 'member'; memberId: string } | { by: 'system' };

export async function appointmentChanged(
  tx: Queryable,
  appointmentId: string,
  change: AppointmentChange,
  actor: ChangeActor,
): Promise<void> {
  // The pipeline follows the visit (visita_agendada, visito: decision 0062).
  await moveContactForAppointment(tx, appointmentId, change, actor);
  // Filled in by the buyer's and the adviser's messages (issue #40, part 4 and 5).
}
