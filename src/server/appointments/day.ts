import { appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import type { AppointmentSource } from '../../lib/admin/contacts.ts';
import { type TodayAgenda, type TodayAppointment, type TodayScope, UNMARKED_PAGE } from '../../lib/admin/today.ts';
import type { AppointmentStatus } from '../../lib/appointments/booking.ts';
import { meridaDayEnd, meridaDayStart } from '../contacts/next-contact.ts';
import type { Queryable } from '../db/database.ts';

/**
 * The appointments "Hoy" shows (issue #40, decision 0062): the day's, on
 * Mérida's calendar (cancelled ones left out), and the confirmed ones of the
 * days before that nobody marked yet ("Asistió" / "No asistió"), in one
 * statement over appointments_member_starts_idx. An adviser's are their own;
 * the team's scope (administrators) is everyone's, each naming its member.
 */
interface Row {
  id: string;
  part: 'today' | 'unmarked';
  kind: string;
  place: string;
  starts_at: Date;
  ends_at: Date;
  status: AppointmentStatus;
  source: AppointmentSource;
  contact_id: string;
  contact_name: string;
  member_id: string | null;
  member_name: string | null;
  unmarked_total: number;
}

const toAppointment = (row: Row): TodayAppointment => {
  const place = appointmentPlace(row.place);
  return {
    id: row.id,
    kindName: appointmentKind(row.kind)?.name ?? row.kind,
    placeName: place?.name ?? row.place,
    timeZone: place?.timeZone ?? 'America/Merida',
    start: new Date(row.starts_at).toISOString(),
    end: new Date(row.ends_at).toISOString(),
    status: row.status,
    source: row.source,
    contact: { id: row.contact_id, name: row.contact_name },
    member: row.member_id ? { id: row.member_id, name: row.member_name ?? '' } : null,
  };
};

export async function dayAppointments(
  db: Queryable,
  who: { scope: TodayScope; memberId: string },
  now: Date,
): Promise<TodayAgenda['appointments']> {
  const mine = who.scope === 'mine';
  const scope = mine ? 'a.member_id = $2' : 'TRUE';
  const params: unknown[] = [now.toISOString(), ...(mine ? [who.memberId] : [])];
  const limit = `$${params.push(UNMARKED_PAGE)}`;
  const { rows } = await db.query<Row>(
    `WITH picked AS (
       (SELECT 'today' AS part, a.*, 0 AS unmarked_total FROM appointments a
        -- An unpaid hold past its time holds nothing: not on the day's list (the calendar shows it as lapsed).
        WHERE ${scope} AND a.status <> 'cancelada' AND (a.status <> 'por_pagar' OR a.hold_until > $1::timestamptz)
          AND a.starts_at >= ${meridaDayStart('$1')} AND a.starts_at < ${meridaDayEnd('$1')}
        ORDER BY a.starts_at, a.id)
       UNION ALL
       (SELECT 'unmarked' AS part, a.*, count(*) OVER ()::int AS unmarked_total FROM appointments a
        WHERE ${scope} AND a.status = 'confirmada' AND a.starts_at < ${meridaDayStart('$1')}
        ORDER BY a.starts_at, a.id
        LIMIT ${limit})
     )
     SELECT p.id, p.part, p.kind, p.place, p.starts_at, p.ends_at, p.status, p.source, p.contact_id,
            c.name AS contact_name, p.member_id, coalesce(u.name, u.email) AS member_name, p.unmarked_total
     FROM picked p JOIN contacts c ON c.id = p.contact_id LEFT JOIN users u ON u.id = p.member_id
     ORDER BY p.starts_at, p.id`,
    params,
  );
  const today = rows.filter((row) => row.part === 'today');
  const unmarked = rows.filter((row) => row.part === 'unmarked');
  return {
    today: today.map(toAppointment),
    unmarked: unmarked.map(toAppointment),
    unmarkedTotal: unmarked[0]?.unmarked_total ?? 0,
  };
}
