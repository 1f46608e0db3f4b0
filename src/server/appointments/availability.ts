import { type AppointmentKind, type AppointmentPlace, isoWeekday } from '../../data/appointments.ts';
import type { SlotsAnswer, SlotsQuery } from '../../lib/appointments/booking.ts';
import type { Queryable } from '../db/database.ts';
import { freeSlots, instantOf, type Slot, type SlotMember } from './slots.ts';

/**
 * The statuses whose appointment holds its time on the member's calendar:
 * those of the exclusion constraint appointments_no_overlap (migration 0037).
 * A 'por_pagar' whose hold has expired no longer holds it here, and the next
 * booking that needs its time cancels it (book.ts).
 */
export const HOLDING_STATUSES = ['por_pagar', 'confirmada'] as const;

const DAY = 86_400_000;

interface MemberRow {
  id: string;
  hours: { weekday: number; starts: string; ends: string; timeZone: string }[];
  time_off: { start: number; end: number }[];
  blocked: { start: number; end: number }[];
}

/**
 * The active members who give `kind`, with their weekly hours, and their time
 * off and held time that touch [from, to): one statement. Instants travel as
 * milliseconds since the epoch, never as the session's local time. `except`
 * names an appointment whose time counts as free (the one being moved).
 */
export async function membersFor(
  db: Queryable,
  kind: string,
  from: number,
  to: number,
  except: string | null = null,
): Promise<SlotMember[]> {
  const { rows } = await db.query<MemberRow>(
    `WITH span AS (SELECT tstzrange(to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0)) AS window)
     SELECT u.id,
       coalesce((SELECT json_agg(json_build_object('weekday', h.weekday, 'starts', to_char(h.starts, 'HH24:MI'),
                  'ends', to_char(h.ends, 'HH24:MI'), 'timeZone', h.time_zone) ORDER BY h.weekday, h.starts)
                 FROM member_weekly_hours h WHERE h.member_id = u.id), '[]') AS hours,
       coalesce((SELECT json_agg(json_build_object('start', extract(epoch FROM lower(t.during)) * 1000,
                  'end', extract(epoch FROM upper(t.during)) * 1000))
                 FROM member_time_off t, span WHERE t.member_id = u.id AND t.during && span.window), '[]') AS time_off,
       coalesce((SELECT json_agg(json_build_object('start', extract(epoch FROM lower(a.blocked)) * 1000,
                  'end', extract(epoch FROM upper(a.blocked)) * 1000))
                 FROM appointments a, span
                 WHERE a.member_id = u.id AND a.blocked && span.window AND a.id IS DISTINCT FROM $4::uuid
                   AND (a.status = 'confirmada' OR (a.status = 'por_pagar' AND a.hold_until > now()))), '[]') AS blocked
     FROM users u
     JOIN member_appointment_kinds k ON k.member_id = u.id AND k.kind = $1
     WHERE u.deactivated_at IS NULL AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id)
     ORDER BY u.id`,
    [kind, from, to, except],
  );
  return rows.map((row) => ({
    id: row.id,
    hours: row.hours,
    timeOff: row.time_off.map(({ start, end }) => ({ start: Number(start), end: Number(end) })),
    blocked: row.blocked.map(({ start, end }) => ({ start: Number(start), end: Number(end) })),
  }));
}

/** The data's place as the slots read it: its hours on ISO weekdays. */
export function slotPlace(place: AppointmentPlace) {
  return {
    timeZone: place.timeZone,
    hours: place.hours.map((opening) => ({
      weekday: isoWeekday(opening.day),
      starts: opening.opens,
      ends: opening.closes,
    })),
    holidays: place.holidays,
  };
}

/**
 * The free slots of `kind` at `place` starting in [from, to), as of `now`:
 * the members' calendars read once, around the window widened by the kind's
 * buffers and length; `everyMember` names all the free members of each;
 * `except` is an appointment whose own time counts as free (a move).
 */
export async function availableSlots(
  db: Queryable,
  kind: AppointmentKind,
  place: AppointmentPlace,
  from: number,
  to: number,
  now: number,
  everyMember = false,
  except: string | null = null,
): Promise<Slot[]> {
  const margin = (kind.durationMinutes + kind.bufferBeforeMinutes + kind.bufferAfterMinutes) * 60_000 + DAY;
  const members = await membersFor(db, kind.id, from - margin, to + margin, except);
  return freeSlots({ kind, place: slotPlace(place), members, now, from, to, everyMember });
}

/** The date after `date` ("2027-03-28" -> "2027-03-29"), on any calendar. */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
}

/**
 * The free slots of a query by dates of the place's calendar (both
 * included), as the public endpoint answers them. `kind` and `place` are the
 * query's, already found (kindAndPlace, book.ts); `except`, an appointment
 * being moved, whose own time counts as free.
 */
export async function slotsAnswer(
  db: Queryable,
  query: Pick<SlotsQuery, 'from' | 'to'>,
  kind: AppointmentKind,
  place: AppointmentPlace,
  now: number,
  except: string | null = null,
): Promise<SlotsAnswer> {
  const from = instantOf(query.from, 0, place.timeZone);
  const to = instantOf(nextDate(query.to), 0, place.timeZone);
  const slots = await availableSlots(db, kind, place, from, to, now, false, except);
  return {
    kind: kind.id,
    place: place.id,
    timeZone: place.timeZone,
    durationMinutes: kind.durationMinutes,
    slots: slots.map((slot) => ({ start: new Date(slot.start).toISOString(), end: new Date(slot.end).toISOString() })),
  };
}
