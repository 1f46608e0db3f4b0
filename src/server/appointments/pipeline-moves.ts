import type { ContactState } from '../../lib/admin/contacts.ts';
import type { AppointmentChange, ChangeActor } from './change-kinds.ts';

/**
 * The pipeline follows the visits (issue #40, decision 0062): what an
 * appointment's change does to its contact's state, written by
 * appointmentChanged() in the statement that queues the change's messages,
 * inside the change's transaction.
 *
 * - booked: a contact still before the visit (nuevo, contactado,
 *   en_seguimiento) moves to visita_agendada;
 * - attended: a contact not yet past the visit (those, or visita_agendada)
 *   moves to visito;
 * - a move, a cancellation or a no-show leaves the state: the adviser decides
 *   what a missed visit means (the no-show proposes a follow-up instead), and
 *   another visit may still be booked.
 *
 * A state is never moved backwards, and a closed contact (cerrado_ganado,
 * cerrado_perdido) never moves: a client who books again stays a client. The
 * move is a `state` line of the contact's history, as a change by hand is,
 * by the member who made the change (none for the buyer or the system), and
 * bumps the contact's version (a page open on the older one is told to
 * reload before it overwrites it).
 */
const MOVES: Partial<Record<AppointmentChange['kind'], { from: ContactState[]; to: ContactState }>> = {
  booked: { from: ['nuevo', 'contactado', 'en_seguimiento'], to: 'visita_agendada' },
  attended: { from: ['nuevo', 'contactado', 'en_seguimiento', 'visita_agendada'], to: 'visito' },
};

/** The state `change` moves a contact in `state` to, or null when it stays. */
export function stateAfterAppointment(state: ContactState, change: AppointmentChange['kind']): ContactState | null {
  const move = MOVES[change];
  return move?.from.includes(state) ? move.to : null;
}

/**
 * The move `change` asks of the appointment's contact (MOVES) as common table
 * expressions to open a statement with (`old`, `moved`, `line`: the contact
 * locked, its state and version written, its history's line), the
 * appointment's id at $1 and the rest of its values numbered from $2; null
 * when the change moves nothing. appointmentChanged() runs it in the same
 * statement as the queue's jobs (one round trip).
 */
export function contactMove(
  change: AppointmentChange['kind'],
  actor: ChangeActor,
): { ctes: string; values: unknown[] } | null {
  const move = MOVES[change];
  if (!move) return null;
  return {
    ctes: `old AS (
       SELECT c.id, c.state FROM contacts c JOIN appointments a ON a.contact_id = c.id
       WHERE a.id = $1 AND c.state = ANY($2::text[])
       FOR UPDATE OF c
     ), moved AS (
       -- A buyer's own booking is not the team's first answer (first_moved_at, the response time).
       UPDATE contacts c SET state = $3, version = c.version + 1, last_activity_at = now(),
         first_moved_at = CASE WHEN $4::uuid IS NULL THEN c.first_moved_at ELSE coalesce(c.first_moved_at, now()) END
       FROM old WHERE c.id = old.id
       RETURNING c.id
     ), line AS (
       INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value)
       SELECT old.id, u.id, coalesce(u.name, u.email), 'state', old.state, $3
       FROM old JOIN moved ON moved.id = old.id LEFT JOIN users u ON u.id = $4::uuid
     )`,
    values: [move.from, move.to, actor.by === 'member' ? actor.memberId : null],
  };
}
