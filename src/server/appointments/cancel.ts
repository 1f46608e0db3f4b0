import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import type { AppointmentStatus } from '../../lib/appointments/booking.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';
import { placeMoment } from './book.ts';
import { appointmentChanged } from './changes.ts';

/**
 * The team cancels an appointment (issue #41: "refunds when the seller
 * cancels"): its member or an administrator, while it has not begun and
 * still holds its time ('por_pagar' or 'confirmada'). One transaction: the
 * status, its line on the contact's history, the activity log's entry and
 * appointmentChanged() (the buyer told on WhatsApp and by e-mail with the
 * calendar's CANCEL, and a paid appointment's refund queued: refunds.ts).
 * Cancelling it again answers the same and writes nothing.
 */

export type CancelResult = 'cancelled' | 'already' | 'not_found' | 'forbidden' | 'begun' | 'closed';

export async function cancelByTeam(
  db: Database,
  appointmentId: string,
  member: { id: string; admin: boolean; actor: Actor },
  now = Date.now(),
): Promise<CancelResult> {
  return db.transaction(async (tx): Promise<CancelResult> => {
    const { rows } = await tx.query<{
      status: AppointmentStatus;
      kind: string;
      place: string;
      member_id: string | null;
      starts_at: number;
      contact_id: string;
      name: string;
    }>(
      `SELECT a.status, a.kind, a.place, a.member_id, extract(epoch FROM a.starts_at) * 1000 AS starts_at, a.contact_id,
              c.name
       FROM appointments a JOIN contacts c ON c.id = a.contact_id WHERE a.id = $1 FOR UPDATE OF a`,
      [appointmentId],
    );
    const row = rows[0];
    if (!row) return 'not_found';
    if (row.member_id !== member.id && !member.admin) return 'forbidden';
    if (row.status === 'cancelada') return 'already';
    if (row.status !== 'por_pagar' && row.status !== 'confirmada') return 'closed';
    if (Number(row.starts_at) <= now) return 'begun';
    await tx.query(`UPDATE appointments SET status = 'cancelada', updated_at = now() WHERE id = $1`, [appointmentId]);
    const place = appointmentPlace(row.place);
    const detail = [
      appointmentKind(row.kind)?.name ?? row.kind,
      place?.name ?? row.place,
      placeMoment(Number(row.starts_at), place?.timeZone ?? 'America/Merida'),
    ].join(' · ');
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
       VALUES ($1, $2, $3, 'appointment', $4, 'cancelada', $5)`,
      [row.contact_id, member.actor.id, member.actor.name, row.status, `${detail}: cancelada por el equipo`],
    );
    await recordActivity(tx, {
      actor: member.actor,
      kind: 'appointment_cancelled',
      summary: `Canceló la cita de ${row.name}`,
      details: { appointment: appointmentId, contact: row.contact_id },
    });
    await appointmentChanged(tx, appointmentId, { kind: 'cancelled' }, { by: 'member', memberId: member.id });
    return 'cancelled';
  });
}
