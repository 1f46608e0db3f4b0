import { type AppointmentKind, type AppointmentPlace, isoWeekday } from '../../data/appointments.ts';
import type { SlotsAnswer, SlotsQuery } from '../../lib/appointments/booking.ts';
import type { Queryable } from '../db/database.ts';
import { freeSlots, instantOf, type Slot, type SlotMember, type Span, type WeeklyHours } from './slots.ts';

/**
 * The statuses whose appointment holds its time on the member's calendar:
 * those of the exclusion constraint appointments_no_overlap (migration 0037).
 * A 'por_pagar' whose hold has expired no longer holds it here, and the next
 * booking that needs its time cancels it (book.ts).
 */
export const HOLDING_STATUSES = ['por_pagar', 'confirmada'] as const;

const DAY = 86_400_000;

/** A member's calendar as cached: what holds time carries until when (a hold that expires). */
interface Calendar {
  version: string;
  /** The window fetched: time off and held time touching [from, to) are all here. */
  from: number;
  to: number;
  hours: (WeeklyHours & { timeZone: string })[];
  timeOff: Span[];
  blocked: (Span & { until: number | null; appointment: string })[];
}

/** How far around now a calendar is fetched at least, so that most windows asked for fit in it. */
const FETCH_BEFORE = 2 * DAY;
const FETCH_AFTER = 80 * DAY;
const CACHE_LIMIT = 2_000;

/**
 * Members' calendars by member id, kept between requests of this process
 * (decision 0064): each under its version of member_calendar_versions, which
 * every change to the member's hours, time off or appointments raises in its
 * own transaction (migration 0040). A request reads the versions (one small
 * statement) and fetches only the calendars that changed or do not cover its
 * window; the calendar is read after its version, so it is never older.
 */
const calendars = new Map<string, Calendar>();

/** Forgets every cached calendar (tests that change the tables with the triggers off). */
export function forgetCalendars(): void {
  calendars.clear();
  computedSlots.clear();
}

/**
 * The active members who give `kind`, with their weekly hours, and their time
 * off and held time that touch [from, to). Instants travel as milliseconds
 * since the epoch, never as the session's local time. `except` names an
 * appointment whose time counts as free (the one being moved).
 */
export async function membersFor(
  db: Queryable,
  kind: string,
  from: number,
  to: number,
  except: string | null = null,
): Promise<{ members: SlotMember[]; versions: string }> {
  const { rows: members } = await db.query<{ id: string; version: string }>(
    `SELECT u.id, coalesce(v.version, 0)::text AS version
     FROM users u
     JOIN member_appointment_kinds k ON k.member_id = u.id AND k.kind = $1
     LEFT JOIN member_calendar_versions v ON v.member_id = u.id
     WHERE u.deactivated_at IS NULL AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id)
     ORDER BY u.id`,
    [kind],
  );
  const stale = members.filter(({ id, version }) => {
    const known = calendars.get(id);
    return !known || known.version !== version || known.from > from || known.to < to;
  });
  if (stale.length > 0) {
    const now = Date.now();
    await fetchCalendars(db, stale, Math.min(from, now - FETCH_BEFORE), Math.max(to, now + FETCH_AFTER));
  }
  const now = Date.now();
  const versions = members.map(({ id, version }) => `${id}:${version}`).join(',');
  return {
    versions,
    members: members.map(({ id }) => {
      const calendar = calendars.get(id) as Calendar;
      return {
        id,
        hours: calendar.hours,
        timeOff: calendar.timeOff.filter((span) => span.end > from && span.start < to),
        blocked: calendar.blocked.filter(
          (span) =>
            span.end > from &&
            span.start < to &&
            (span.until === null || span.until > now) &&
            span.appointment !== except,
        ),
      };
    }),
  };
}

interface CalendarRow {
  id: string;
  part: 'hours' | 'off' | 'held';
  weekday: number | null;
  starts: string | null;
  ends: string | null;
  time_zone: string | null;
  a: number | null;
  b: number | null;
  until: number | null;
  appointment: string | null;
}

/** Reads the calendars of `members` over [from, to) into the cache, under the versions read before. */
async function fetchCalendars(
  db: Queryable,
  members: readonly { id: string; version: string }[],
  from: number,
  to: number,
): Promise<void> {
  const { rows } = await db.query<CalendarRow>(
    `WITH span AS (SELECT tstzrange(to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0)) AS window)
     SELECT h.member_id AS id, 'hours' AS part, h.weekday, to_char(h.starts, 'HH24:MI') AS starts,
            to_char(h.ends, 'HH24:MI') AS ends, h.time_zone, NULL::float8 AS a, NULL::float8 AS b, NULL::float8 AS until,
            NULL::uuid AS appointment
     FROM member_weekly_hours h WHERE h.member_id = ANY ($1::uuid[])
     UNION ALL
     SELECT t.member_id, 'off', NULL, NULL, NULL, NULL, extract(epoch FROM lower(t.during))::float8 * 1000,
            extract(epoch FROM upper(t.during))::float8 * 1000, NULL, NULL
     FROM member_time_off t, span WHERE t.member_id = ANY ($1::uuid[]) AND t.during && span.window
     UNION ALL
     SELECT a.member_id, 'held', NULL, NULL, NULL, NULL, extract(epoch FROM lower(a.blocked))::float8 * 1000,
            extract(epoch FROM upper(a.blocked))::float8 * 1000,
            CASE WHEN a.status = 'por_pagar' THEN extract(epoch FROM a.hold_until)::float8 * 1000 END, a.id
     FROM appointments a, span
     WHERE a.member_id = ANY ($1::uuid[]) AND a.blocked && span.window AND a.status IN ('por_pagar', 'confirmada')`,
    [members.map((member) => member.id), from, to],
  );
  const fresh = new Map<string, Calendar>(
    members.map(({ id, version }) => [id, { version, from, to, hours: [], timeOff: [], blocked: [] }]),
  );
  for (const row of rows) {
    const calendar = fresh.get(row.id) as Calendar;
    if (row.part === 'hours') {
      calendar.hours.push({
        weekday: Number(row.weekday),
        starts: row.starts as string,
        ends: row.ends as string,
        timeZone: row.time_zone as string,
      });
    } else if (row.part === 'off') calendar.timeOff.push({ start: Number(row.a), end: Number(row.b) });
    else
      calendar.blocked.push({
        start: Number(row.a),
        end: Number(row.b),
        until: row.until === null ? null : Number(row.until),
        appointment: row.appointment as string,
      });
  }
  if (calendars.size + fresh.size > CACHE_LIMIT) calendars.clear();
  for (const [id, calendar] of fresh) calendars.set(id, calendar);
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
  const { members, versions } = await membersFor(db, kind.id, from - margin, to + margin, except);
  // A booking or a move (every member, one start) computes its own; a list of slots may be one already made.
  if (everyMember || except !== null)
    return freeSlots({ kind, place: slotPlace(place), members, now, from, to, everyMember });
  const key = `${kind.id}|${place.id}|${from}|${to}|${Math.floor(now / MINUTE)}|${versions}`;
  let slots = computedSlots.get(key);
  if (!slots) {
    slots = freeSlots({ kind, place: slotPlace(place), members, now, from, to });
    if (computedSlots.size >= COMPUTED_LIMIT) computedSlots.clear();
    computedSlots.set(key, slots);
  }
  // Made earlier in this minute: a start whose notice has run out since is no longer offered.
  const earliest = now + kind.minimumNoticeHours * 3_600_000;
  return slots[0] && slots[0].start < earliest ? slots.filter((slot) => slot.start >= earliest) : slots;
}

const MINUTE = 60_000;
const COMPUTED_LIMIT = 500;

/**
 * Lists of free slots as computed, kept by everything they are made of
 * (decision 0067): the kind and the place, the window, the minute, and every
 * member who gives the kind with their calendar's version. Visitors who open
 * the same picker within a minute, while nobody's calendar changes, share one
 * computation; any booking, move, time off or change of hours raises a
 * version and so a new key. What the minute may hide: a hold that expired
 * during it frees its slot at the next minute, and a slot that enters the
 * kind's horizon during it is offered from the next (the notice is applied
 * at every read). A booking always checks its slot anew (everyMember).
 */
const computedSlots = new Map<string, Slot[]>();

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
