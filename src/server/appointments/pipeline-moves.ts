import type { ContactState } from '../../lib/admin/contacts.ts';
import type { Queryable } from '../db/database.ts';
import type { AppointmentChange, ChangeActor } from './change-kinds.ts';

/**
 * The pipeline follows the visits (issue #40, decision 0062): what an
 * appointment's change does to its contact's state, called first thing by
 * appointmentChanged(), inside the change's transaction.
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

/** Moves the appointment's contact as its change asks (MOVES); the state it left, or null when it stayed. */
export async function moveContactForAppointment(
  tx: Queryable,
  appointmentId: string,
  change: AppointmentChange,
  actor: ChangeActor,
): Promise<{ contactId: string; from: ContactState; to: ContactState } | null> {
  const move = MOVES[change.kind];
  if (!move) return null;
  const { rows } = await tx.query<{ contact_id: string; from_state: ContactState }>(
    `WITH old AS (
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
     )
     SELECT old.id AS contact_id, old.state AS from_state FROM old`,
    [appointmentId, move.from, move.to, actor.by === 'member' ? actor.memberId : null],
  );
  const row = rows[0];
  return row ? { contactId: row.contact_id, from: row.from_state, to: move.to } : null;
}
