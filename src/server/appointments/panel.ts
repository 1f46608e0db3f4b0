import { APPOINTMENTS, appointmentKind, appointmentPlace } from '../../data/appointments.ts';
import type { AppointmentStatus, BookingAnswer } from '../../lib/appointments/booking.ts';
import {
  type AvailabilityInput,
  type AvailabilityView,
  type BookingOptions,
  type CalendarItem,
  DEFAULT_TIME_ZONE,
  MEMBER_TIME_ZONES,
  type MemberTimeZone,
  type PanelBooking,
  type TimeOffAdded,
  type TimeOffInput,
  type TimeOffView,
  WEEKDAY_NAMES,
} from '../../lib/appointments/panel.ts';
import type { PaymentMethod, PaymentStatus } from '../../lib/payments/panel.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { SessionUser } from '../auth/users.ts';
import { clockFormat, clockParts } from '../clock-formats.ts';
import type { Database, Queryable } from '../db/database.ts';
import { bookAppointment, HOLDS_TIME } from './book.ts';
import { instantOf } from './slots.ts';

/**
 * The panel's appointments (issue #40, decision 0061): a member's
 * availability (weekly hours on their wall clock, time off as instants, the
 * kinds they give; migration 0037's tables), the calendar of a member or of
 * the team, and a booking for a contact that already exists. Who may see or
 * change whose is decided here (`mayManage`), the endpoints answer 403.
 */

/** The zone the calendar's dates are read in: the team's (Mérida, UTC-6 all year). */
export const TEAM_TIME_ZONE = 'America/Merida';

/** A member may manage their own availability and calendar; an administrator anyone's. */
export const mayManage = (user: Pick<SessionUser, 'id' | 'admin'>, member: string): boolean =>
  user.admin || user.id === member;

interface MemberRow {
  id: string;
  name: string;
}

/** The active members of the team (with a role), by name. */
async function teamMembers(db: Queryable): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT u.id, coalesce(u.name, u.email) AS name FROM users u
     WHERE u.deactivated_at IS NULL AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id)
     ORDER BY lower(coalesce(u.name, u.email)), u.id`,
  );
  return rows;
}

/** The member with this id (active, with a role), or null. */
export async function findMember(db: Queryable, id: string): Promise<MemberRow | null> {
  const { rows } = await db.query<MemberRow>(
    `SELECT u.id, coalesce(u.name, u.email) AS name FROM users u
     WHERE u.id = $1 AND u.deactivated_at IS NULL AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id)`,
    [id],
  );
  return rows[0] ?? null;
}

const WALL: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** "2026-12-24T09:00": an instant on a zone's wall clock (as a datetime-local input holds it). */
export function wallTime(instant: number, timeZone: string): string {
  const parts = clockParts(clockFormat('wall', 'en-CA', timeZone, WALL), instant);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The instant a wall clock ("2026-12-24T09:00") shows in a zone; null for a time the clock skips. */
export function instantOfWall(wall: string, timeZone: string): number | null {
  const [date = '', clock = ''] = wall.split('T');
  const instant = instantOf(date, Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5)), timeZone);
  return wallTime(instant, timeZone) === wall ? instant : null;
}

/** The member's zone: the one they saved (migration 0056), else that of their weekly hours, else Mérida's. */
async function zoneOf(db: Queryable, member: string): Promise<MemberTimeZone> {
  const { rows } = await db.query<{ time_zone: string }>(
    `SELECT coalesce((SELECT time_zone FROM member_time_zones WHERE member_id = $1),
                     (SELECT time_zone FROM member_weekly_hours WHERE member_id = $1 ORDER BY id LIMIT 1)) AS time_zone`,
    [member],
  );
  const zone = rows[0]?.time_zone;
  return MEMBER_TIME_ZONES.find((known) => known === zone) ?? DEFAULT_TIME_ZONE;
}

/** A member's availability as the editor shows it; `viewer` decides which members the editor offers. */
export async function readAvailability(
  db: Queryable,
  member: MemberRow,
  viewer: Pick<SessionUser, 'id' | 'admin'>,
): Promise<AvailabilityView> {
  const timeZone = await zoneOf(db, member.id);
  const weekly = await db.query<{ weekday: number; starts: string; ends: string }>(
    `SELECT weekday, to_char(starts, 'HH24:MI') AS starts, to_char(ends, 'HH24:MI') AS ends
     FROM member_weekly_hours WHERE member_id = $1 ORDER BY weekday, starts`,
    [member.id],
  );
  const off = await db.query<{ id: string; start: number; end: number; reason: string | null }>(
    `SELECT id, extract(epoch FROM lower(during)) * 1000 AS start, extract(epoch FROM upper(during)) * 1000 AS end, reason
     FROM member_time_off WHERE member_id = $1 AND upper(during) > now() ORDER BY lower(during)`,
    [member.id],
  );
  const kinds = await db.query<{ kind: string }>(
    'SELECT kind FROM member_appointment_kinds WHERE member_id = $1 ORDER BY kind',
    [member.id],
  );
  const members = viewer.admin ? await teamMembers(db) : [member];
  return {
    member,
    timeZone,
    weekly: weekly.rows.map((row) => ({ weekday: Number(row.weekday), starts: row.starts, ends: row.ends })),
    timeOff: off.rows.map((row): TimeOffView => {
      const start = Number(row.start);
      const end = Number(row.end);
      return {
        id: row.id,
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        startWall: wallTime(start, timeZone),
        endWall: wallTime(end, timeZone),
        reason: row.reason,
      };
    }),
    kinds: kinds.rows.map((row) => row.kind),
    allKinds: APPOINTMENTS.kinds.map((kind) => ({ id: kind.id, name: kind.name })),
    members,
  };
}

/** "lunes 09:00–14:00, 16:00–19:00; martes …": the week as the activity log keeps it. */
function weekSummary(input: AvailabilityInput): string {
  if (input.weekly.length === 0) return 'sin horario';
  const days = new Map<number, string[]>();
  for (const range of [...input.weekly].sort((a, b) => a.weekday - b.weekday || a.starts.localeCompare(b.starts))) {
    days.set(range.weekday, [...(days.get(range.weekday) ?? []), `${range.starts}–${range.ends}`]);
  }
  return [...days].map(([day, ranges]) => `${WEEKDAY_NAMES[day - 1]?.toLowerCase()} ${ranges.join(', ')}`).join('; ');
}

/** Replaces the member's weekly hours and kinds, with its activity entry; 'unknown_kind' names a kind the data lacks. */
export async function saveAvailability(
  db: Database,
  member: MemberRow,
  input: AvailabilityInput,
  actor: Actor,
): Promise<'saved' | { unknownKind: string }> {
  const unknown = input.kinds.find((kind) => !appointmentKind(kind));
  if (unknown) return { unknownKind: unknown };
  const kinds = [...new Set(input.kinds)];
  await db.transaction(async (tx) => {
    // One editor at a time per member: two saves at once end as one of them, never a mix.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`availability:${member.id}`]);
    await tx.query('DELETE FROM member_weekly_hours WHERE member_id = $1', [member.id]);
    // The zone is the member's, kept even with no weekly hours: their time off is read on it.
    await tx.query(
      `INSERT INTO member_time_zones (member_id, time_zone) VALUES ($1, $2)
       ON CONFLICT (member_id) DO UPDATE SET time_zone = EXCLUDED.time_zone, updated_at = now()`,
      [member.id, input.timeZone],
    );
    if (input.weekly.length > 0) {
      await tx.query(
        `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
         SELECT $1, r.weekday, r.starts::time, r.ends::time, $3
         FROM jsonb_to_recordset($2::jsonb) AS r (weekday smallint, starts text, ends text)`,
        [member.id, JSON.stringify(input.weekly), input.timeZone],
      );
    }
    await tx.query('DELETE FROM member_appointment_kinds WHERE member_id = $1', [member.id]);
    if (kinds.length > 0) {
      await tx.query('INSERT INTO member_appointment_kinds (member_id, kind) SELECT $1, unnest($2::text[])', [
        member.id,
        kinds,
      ]);
    }
    const names = kinds.map((kind) => appointmentKind(kind)?.name ?? kind).join(', ') || 'ninguno';
    await recordActivity(tx, {
      actor,
      kind: 'availability_changed',
      summary: `Horario de citas de ${member.name} (${input.timeZone}): ${weekSummary(input)}. Tipos: ${names}`,
      details: { member: member.id, timeZone: input.timeZone, weekly: input.weekly, kinds },
    });
  });
  return 'saved';
}

/** Adds a time off on the member's wall clock; 'invalid_time' when a time does not exist there (a skipped hour). */
export async function addTimeOff(
  db: Database,
  member: MemberRow,
  input: TimeOffInput,
  actor: Actor,
): Promise<TimeOffAdded | 'invalid_time'> {
  const timeZone = await zoneOf(db, member.id);
  const start = instantOfWall(input.start, timeZone);
  const end = instantOfWall(input.end, timeZone);
  if (start === null || end === null || start >= end) return 'invalid_time';
  const reason = input.reason ? input.reason : null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO member_time_off (member_id, during, reason)
       VALUES ($1, tstzrange(to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0)), $4) RETURNING id`,
      [member.id, start, end, reason],
    );
    const id = rows[0]?.id ?? '';
    // Time off takes no appointment away: those already in it stand, and the member is told how many.
    const during = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM appointments a
       WHERE a.member_id = $1 AND a.starts_at < to_timestamp($3 / 1000.0) AND a.ends_at > to_timestamp($2 / 1000.0)
         AND ${HOLDS_TIME}`,
      [member.id, start, end],
    );
    await recordActivity(tx, {
      actor,
      kind: 'availability_changed',
      summary: `Ausencia de ${member.name}: ${input.start.replace('T', ' ')} a ${input.end.replace('T', ' ')} (${timeZone})${reason ? ` · ${reason}` : ''}`,
      details: { member: member.id, timeOff: id },
    });
    return {
      id,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      startWall: input.start,
      endWall: input.end,
      reason,
      appointmentsDuring: during.rows[0]?.count ?? 0,
    };
  });
}

/** Removes one of the member's time off; false when it is not theirs or gone. */
export async function removeTimeOff(db: Database, member: MemberRow, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ start: number; end: number }>(
      `DELETE FROM member_time_off WHERE id = $1 AND member_id = $2
       RETURNING extract(epoch FROM lower(during)) * 1000 AS start, extract(epoch FROM upper(during)) * 1000 AS end`,
      [id, member.id],
    );
    const row = rows[0];
    if (!row) return false;
    const timeZone = await zoneOf(tx, member.id);
    await recordActivity(tx, {
      actor,
      kind: 'availability_changed',
      summary: `Quitó la ausencia de ${member.name}: ${wallTime(Number(row.start), timeZone).replace('T', ' ')} a ${wallTime(Number(row.end), timeZone).replace('T', ' ')}`,
      details: { member: member.id, timeOff: id },
    });
    return true;
  });
}

interface CalendarRow {
  id: string;
  starts_at: number;
  ends_at: number;
  status: AppointmentStatus;
  source: CalendarItem['source'];
  kind: string;
  place: string;
  contact_id: string;
  contact_name: string;
  member_id: string | null;
  member_name: string | null;
  price_mxn: number | null;
  hold_until: number | null;
  payment_status: PaymentStatus | null;
  payment_method: PaymentMethod | null;
}

function itemOf(row: CalendarRow): CalendarItem {
  const place = appointmentPlace(row.place);
  return {
    id: row.id,
    start: new Date(Number(row.starts_at)).toISOString(),
    end: new Date(Number(row.ends_at)).toISOString(),
    status: row.status,
    source: row.source,
    kind: row.kind,
    kindName: appointmentKind(row.kind)?.name ?? row.kind,
    place: row.place,
    placeName: place?.name ?? row.place,
    placeTimeZone: place?.timeZone ?? TEAM_TIME_ZONE,
    contact: { id: row.contact_id, name: row.contact_name },
    member: row.member_id ? { id: row.member_id, name: row.member_name ?? '' } : null,
    priceMxn: row.price_mxn,
    holdUntil: row.hold_until === null ? null : new Date(Number(row.hold_until)).toISOString(),
    payment: row.payment_status ? { status: row.payment_status, method: row.payment_method } : null,
  };
}

const CALENDAR_SELECT = `SELECT a.id, extract(epoch FROM a.starts_at) * 1000 AS starts_at,
    extract(epoch FROM a.ends_at) * 1000 AS ends_at, a.status, a.source, a.kind, a.place,
    c.id AS contact_id, c.name AS contact_name, a.member_id, coalesce(u.name, u.email) AS member_name,
    a.price_mxn, extract(epoch FROM a.hold_until) * 1000 AS hold_until,
    p.status AS payment_status, p.method AS payment_method
  FROM appointments a
  JOIN contacts c ON c.id = a.contact_id
  LEFT JOIN users u ON u.id = a.member_id
  LEFT JOIN LATERAL (
    SELECT status, method FROM payments p WHERE p.appointment_id = a.id
    ORDER BY (p.status = 'pagado' AND p.refund_requested_at IS NULL) DESC, payment_status_rank(p.status) DESC,
      p.created_at DESC LIMIT 1
  ) p ON true`;

/** The date after `date` ("2027-03-28" -> "2027-03-29"). */
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The appointments starting between two dates of the team's calendar (both
 * included), of one member or (null) the whole team, cancelled ones included
 * (the calendar shows them struck through), in time order.
 */
export async function calendar(
  db: Queryable,
  from: string,
  to: string,
  member: string | null,
): Promise<CalendarItem[]> {
  const start = instantOf(from, 0, TEAM_TIME_ZONE);
  const end = instantOf(nextDate(to), 0, TEAM_TIME_ZONE);
  const { rows } = await db.query<CalendarRow>(
    `${CALENDAR_SELECT}
     WHERE a.starts_at >= to_timestamp($1 / 1000.0) AND a.starts_at < to_timestamp($2 / 1000.0)
       AND ($3::uuid IS NULL OR a.member_id = $3)
     ORDER BY a.starts_at, a.id
     LIMIT 2000`,
    [start, end, member],
  );
  return rows.map(itemOf);
}

/** A contact's appointments, the latest first; null when the contact does not exist. */
export async function contactAppointments(db: Queryable, contact: string): Promise<CalendarItem[] | null> {
  const exists = await db.query('SELECT 1 FROM contacts WHERE id = $1', [contact]);
  if (exists.rows.length === 0) return null;
  const { rows } = await db.query<CalendarRow>(
    `${CALENDAR_SELECT} WHERE a.contact_id = $1 ORDER BY a.starts_at DESC, a.id LIMIT 200`,
    [contact],
  );
  return rows.map(itemOf);
}

/** The kinds and their places, as the booking dialog offers them. */
export function bookingOptions(): BookingOptions {
  return {
    kinds: APPOINTMENTS.kinds.map((kind) => ({
      id: kind.id,
      name: kind.name,
      durationMinutes: kind.durationMinutes,
      priceMxn: kind.priceMxn,
      places: kind.places.flatMap((id) => {
        const place = appointmentPlace(id);
        return place ? [{ id: place.id, name: place.name, timeZone: place.timeZone }] : [];
      }),
    })),
  };
}

/**
 * A member books a slot for a contact: the booking service (bookAppointment,
 * source 'panel') with the contact's own phone and name, so touch_contact()
 * finds that same contact (the phone is unique) and creates none. null when
 * the contact does not exist. SlotTaken, UnknownKind and UnknownPlace are
 * thrown as by the public booking.
 */
export async function bookForContact(
  db: Database,
  input: PanelBooking,
  member: Actor,
  now: number,
): Promise<(BookingAnswer & { contactId: string }) | null> {
  const { rows } = await db.query<{ phone: string; name: string; email: string | null }>(
    'SELECT phone, name, email FROM contacts WHERE id = $1',
    [input.contactId],
  );
  const contact = rows[0];
  if (!contact) return null;
  const answer = await bookAppointment(db, {
    // The contact's e-mail as the team has it: where the appointment's e-mails go (migration 0048).
    booking: {
      name: contact.name,
      phone: contact.phone,
      ...(contact.email && { email: contact.email }),
      kind: input.kind,
      place: input.place,
      start: input.start,
    },
    source: 'panel',
    idempotencyKey: null,
    now,
    actor: { by: 'member', memberId: member.id },
    // The activity entry commits with the booking, or neither does (decision 0028).
    alsoRecord: (tx, booked) =>
      recordActivity(tx, {
        actor: member,
        kind: 'appointment_booked',
        summary: `Agendó ${appointmentKind(booked.kind)?.name ?? booked.kind} para ${contact.name} (${wallTime(Date.parse(booked.start), TEAM_TIME_ZONE).replace('T', ' ')}, hora de Mérida)`,
        details: { appointment: booked.id, contact: input.contactId },
      }),
  });
  return { ...answer, contactId: input.contactId };
}
