import { TZDate } from '@date-fns/tz';

/**
 * The free slots of a kind of appointment at a place (issue #40, decision
 * 0058), computed from instants and wall clocks, never from the server's own
 * zone: a pure function of its arguments, so the same inputs give the same
 * slots on any machine, and the tests pin `now`.
 *
 * A slot is a start instant at which the appointment [start, start +
 * duration) lies inside the place's opening hours of that day (in the
 * place's zone, not on a holiday of the place), starts no earlier than `now`
 * + the kind's notice and before `now` + its horizon, and at least one member
 * who gives the kind is free: the appointment inside one of their weekly
 * hours (in the member's zone), clear of their time off, and its blocked
 * range (with the kind's buffers) clear of their blocked ranges. Starts are
 * every SLOT_STEP_MINUTES of real time from the opening's first instant, so
 * a day that skips or repeats an hour (daylight saving) has as many slots as
 * it has time.
 */

export const SLOT_STEP_MINUTES = 30;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A span of time: [start, end) in milliseconds since the epoch. */
export interface Span {
  start: number;
  end: number;
}

/** A weekly opening or working time on a wall clock: ISO weekday (1 Monday … 7 Sunday), "HH:MM" to "HH:MM". */
export interface WeeklyHours {
  weekday: number;
  starts: string;
  ends: string;
}

export interface SlotKind {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeHours: number;
  horizonDays: number;
}

export interface SlotPlace {
  timeZone: string;
  hours: readonly WeeklyHours[];
  /** Dates ("2027-01-01") of the place's calendar on which it is closed. */
  holidays: readonly string[];
}

export interface SlotMember {
  id: string;
  /** The member's weekly hours, each in its own zone. */
  hours: readonly (WeeklyHours & { timeZone: string })[];
  timeOff: readonly Span[];
  /** What the member's calendar already holds (appointments with their buffers). */
  blocked: readonly Span[];
}

export interface SlotQuery {
  kind: SlotKind;
  place: SlotPlace;
  members: readonly SlotMember[];
  now: number;
  /** The window asked for: slots starting in [from, to). */
  from: number;
  to: number;
}

export interface Slot {
  start: number;
  end: number;
  /** The members free for it, in the order given. */
  members: string[];
}

/** "09:30" as minutes since midnight. */
function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The calendar date ("2027-03-28") of an instant in a zone. */
export function dateIn(instant: number, timeZone: string): string {
  const local = new TZDate(instant, timeZone);
  const month = String(local.getMonth() + 1).padStart(2, '0');
  const day = String(local.getDate()).padStart(2, '0');
  return `${local.getFullYear()}-${month}-${day}`;
}

/** The instant of a wall-clock time on a date in a zone (a time the clock skips moves forward by the gap). */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number);
  return new TZDate(
    year ?? 1970,
    (month ?? 1) - 1,
    day ?? 1,
    Math.floor(minutes / 60),
    minutes % 60,
    timeZone,
  ).getTime();
}

/** The dates of a zone's calendar that [from, to) touches, one day more on each side. */
function datesAround(from: number, to: number, timeZone: string): string[] {
  const dates: string[] = [];
  // Noon-to-noon steps of real time never skip a date, whatever the day's length (23 to 25 hours).
  for (let instant = from - DAY; instant <= to + DAY; instant += DAY) {
    const date = dateIn(instant, timeZone);
    if (dates.at(-1) !== date) dates.push(date);
  }
  return dates;
}

/** ISO weekday of a calendar date (1 Monday … 7 Sunday); the date alone decides it. */
function weekdayOf(date: string): number {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The spans of weekly hours that overlap [from, to), as instants, each on its own zone's dates. */
export function weeklySpans(
  hours: readonly (WeeklyHours & { timeZone: string })[],
  from: number,
  to: number,
  skip: ReadonlySet<string> = new Set(),
): Span[] {
  const spans: Span[] = [];
  const zones = [...new Set(hours.map((entry) => entry.timeZone))];
  for (const zone of zones) {
    for (const date of datesAround(from, to, zone)) {
      if (skip.has(date)) continue;
      const weekday = weekdayOf(date);
      for (const entry of hours) {
        if (entry.timeZone !== zone || entry.weekday !== weekday) continue;
        const span = {
          start: instantOf(date, minutesOf(entry.starts), zone),
          end: instantOf(date, minutesOf(entry.ends), zone),
        };
        if (span.start < span.end && span.end > from && span.start < to) spans.push(span);
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const inside = (inner: Span, outer: Span) => outer.start <= inner.start && inner.end <= outer.end;

/** The free slots of `query`, in time order. */
export function freeSlots(query: SlotQuery): Slot[] {
  const { kind, place, members, now } = query;
  const duration = kind.durationMinutes * MINUTE;
  const earliest = Math.max(query.from, now + kind.minimumNoticeHours * HOUR);
  const latest = Math.min(query.to, now + kind.horizonDays * DAY);
  if (earliest >= latest || members.length === 0) return [];

  const openings = weeklySpans(
    place.hours.map((entry) => ({ ...entry, timeZone: place.timeZone })),
    earliest,
    latest + duration,
    new Set(place.holidays),
  );
  const working = members.map((member) => ({
    member,
    spans: weeklySpans(member.hours, earliest, latest + duration),
  }));

  const slots: Slot[] = [];
  // Two openings that overlap (a day written twice) give each start once.
  const seen = new Set<number>();
  for (const opening of openings) {
    for (let start = opening.start; start + duration <= opening.end; start += SLOT_STEP_MINUTES * MINUTE) {
      if (start < earliest || start >= latest || seen.has(start)) continue;
      seen.add(start);
      const appointment = { start, end: start + duration };
      const held = heldSpan(kind, start);
      const free = working
        .filter(
          ({ member, spans }) =>
            spans.some((span) => inside(appointment, span)) &&
            !member.timeOff.some((span) => overlaps(appointment, span)) &&
            !member.blocked.some((span) => overlaps(held, span)),
        )
        .map(({ member }) => member.id);
      if (free.length > 0) slots.push({ ...appointment, members: free });
    }
  }
  return slots.sort((a, b) => a.start - b.start);
}

/** The span an appointment starting at `start` holds on a member's calendar, buffers included. */
export function heldSpan(kind: SlotKind, start: number): Span {
  return {
    start: start - kind.bufferBeforeMinutes * MINUTE,
    end: start + (kind.durationMinutes + kind.bufferAfterMinutes) * MINUTE,
  };
}
