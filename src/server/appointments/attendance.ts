import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import { type ContactState, isClosed } from '../../lib/admin/contacts.ts';
import { meridaDaysAhead } from '../../lib/admin/merida-time.ts';
import { ATTENDANCE_MESSAGES, type AttendanceSaved, NO_SHOW_FOLLOW_UP } from '../../lib/appointments/attendance.ts';
import type { AppointmentStatus } from '../../lib/appointments/booking.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import { isoInstant, NEXT_CONTACT } from '../contacts/next-contact.ts';
import type { Database } from '../db/database.ts';
import { placeMoment } from './book.ts';
import { appointmentChanged } from './changes.ts';

/**
 * "Asistió" / "No asistió" (issue #40, part 5, decision 0062): the member
 * who gives the appointment, or an administrator, marks it once its start
 * has passed. One transaction: the appointment's status (asistio /
 * no_asistio), its line on the contact's history, the activity log's entry
 * and appointmentChanged() (which moves the pipeline: an attended visit makes
 * the contact `visito`). Only a `confirmada` appointment is marked: a
 * `por_pagar` one was never paid (its hold lapses and its time is freed), a
 * cancelled one did not happen. The same mark again answers the same and
 * writes nothing; the other mark on a marked appointment is refused (409).
 * A no-show proposes the next contact (NO_SHOW_FOLLOW_UP) for the panel to
 * offer in one tap; nothing is scheduled until the adviser takes it.
 */

/** Refused with 409 and the message. */
export class AttendanceConflict extends Error {
  override name = 'AttendanceConflict';
}

export type AttendanceResult = AttendanceSaved | 'not_found' | 'forbidden';

interface Row {
  status: AppointmentStatus;
  kind: string;
  place: string;
  member_id: string | null;
  starts_at: number;
  contact_id: string;
}

export async function markAttendance(
  db: Database,
  appointmentId: string,
  attended: boolean,
  member: { id: string; admin: boolean; actor: Actor },
  now = new Date(),
): Promise<AttendanceResult> {
  const status = attended ? 'asistio' : 'no_asistio';
  return db.transaction(async (tx): Promise<AttendanceResult> => {
    const { rows } = await tx.query<Row>(
      `SELECT status, kind, place, member_id, extract(epoch FROM starts_at) * 1000 AS starts_at, contact_id
       FROM appointments WHERE id = $1 FOR UPDATE`,
      [appointmentId],
    );
    const row = rows[0];
    if (!row) return 'not_found';
    if (row.member_id !== member.id && !member.admin) return 'forbidden';
    const changed = row.status !== status;
    if (changed) {
      if (row.status === 'cancelada') throw new AttendanceConflict(ATTENDANCE_MESSAGES.cancelled);
      if (row.status === 'por_pagar') throw new AttendanceConflict(ATTENDANCE_MESSAGES.unpaid);
      if (row.status === 'asistio' || row.status === 'no_asistio') {
        throw new AttendanceConflict(ATTENDANCE_MESSAGES.markedOther[row.status]);
      }
      if (Number(row.starts_at) > now.getTime()) throw new AttendanceConflict(ATTENDANCE_MESSAGES.notYet);

      await tx.query(`UPDATE appointments SET status = $2, updated_at = now() WHERE id = $1`, [appointmentId, status]);
      const kind = appointmentKind(row.kind);
      const place = appointmentPlace(row.place);
      const detail = [
        kind?.name ?? row.kind,
        place?.name ?? row.place,
        placeMoment(Number(row.starts_at), place?.timeZone ?? 'America/Merida'),
      ].join(' · ');
      await tx.query(
        `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
         VALUES ($1, $2, $3, 'appointment', $4, $5, $6)`,
        [row.contact_id, member.actor.id, member.actor.name, row.status, status, detail],
      );
      await tx.query('UPDATE contacts SET last_activity_at = now() WHERE id = $1', [row.contact_id]);
      const { rows: named } = await tx.query<{ name: string }>('SELECT name FROM contacts WHERE id = $1', [
        row.contact_id,
      ]);
      await recordActivity(tx, {
        actor: member.actor,
        kind: 'appointment_attendance',
        summary: `Marcó la cita de ${named[0]?.name ?? 'un prospecto'} como «${attended ? 'Asistió' : 'No asistió'}»`,
        details: { appointment: appointmentId, contact: row.contact_id, status },
      });
      await appointmentChanged(
        tx,
        appointmentId,
        { kind: attended ? 'attended' : 'no_show' },
        { by: 'member', memberId: member.id },
      );
    }
    const { rows: contacts } = await tx.query<{
      name: string;
      state: ContactState;
      version: number;
      next: Date | null;
    }>(`SELECT c.name, c.state, c.version, ${NEXT_CONTACT} AS next FROM contacts c WHERE c.id = $1`, [row.contact_id]);
    const contact = contacts[0];
    if (!contact) throw new Error('the appointment’s contact is gone');
    return {
      id: appointmentId,
      status,
      contact: {
        id: row.contact_id,
        name: contact.name,
        state: contact.state,
        version: contact.version,
        nextContactAt: isoInstant(contact.next),
      },
      // A closed contact (a client who booked again, a lost one with a visit still held) takes no next contact:
      // nothing is proposed that the contact's change would drop.
      proposedNextContactAt:
        attended || isClosed(contact.state)
          ? null
          : meridaDaysAhead(NO_SHOW_FOLLOW_UP.days, NO_SHOW_FOLLOW_UP.time, now),
      changed,
    };
  });
}
