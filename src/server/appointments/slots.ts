import { TZDate } from '@date-fns/tz';
import { wallClockInstant } from '../wall-clock.ts';

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
  /** Name every free member of each slot (a booking picks among them); otherwise only the first (a list of slots). */
  everyMember?: boolean;
}

export interface Slot {
  start: number;
  end: number;
  /** The members free for it, in the order given (only the first unless `everyMember`). */
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

/**
 * A function's answers kept by key, forgotten all at once past `limit`: the
 * zones' rules never change within a process, and turning a wall clock into
 * an instant (Intl underneath) is the slots' costliest step, repeated for
 * every member who keeps the same hours.
 */
function remembered<T>(compute: (key: string) => T, limit: number): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      value = compute(key);
      known.set(key, value);
    }
    return value;
  };
}

const rememberedInstant = remembered((key) => {
  const [date = '', minutes = '0', timeZone = 'UTC'] = key.split('|');
  const [year, month, day] = date.split('-').map(Number);
  return wallClockInstant(year ?? 1970, (month ?? 1) - 1, day ?? 1, Number(minutes), timeZone);
}, 20_000);

/** The instant of a wall-clock time on a date in a zone (a time the clock skips moves forward by the gap). */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  return rememberedInstant(`${date}|${minutes}|${timeZone}`);
}

/**
 * The dates of a zone's calendar that [from, to) touches, and more: every
 * zone is within a day of UTC, so the UTC dates from two days before to two
 * days after hold them all (what falls outside [from, to) is left out by the
 * caller); no time-zone arithmetic is needed to list them.
 */
function datesAround(from: number, to: number, _timeZone: string): readonly { date: string; weekday: number }[] {
  const utcDate = (instant: number) => new Date(instant).toISOString().slice(0, 10);
  return zoneDates(`${utcDate(from - 2 * DAY)}|${utcDate(to + 2 * DAY)}`);
}

/** Every date from the first to the last of `key` ("2027-03-01|2027-03-31"): a calendar's dates follow each other, whatever its zone. */
const zoneDates = remembered((key) => {
  const [first = '', last = ''] = key.split('|');
  const dates: { date: string; weekday: number }[] = [];
  for (let day = Date.parse(`${first}T00:00:00Z`); day <= Date.parse(`${last}T00:00:00Z`); day += DAY) {
    const date = new Date(day).toISOString().slice(0, 10);
    dates.push({ date, weekday: weekdayOf(date) });
  }
  return dates;
}, 200);

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
  const entries = hours.map((entry) => ({ ...entry, from: minutesOf(entry.starts), to: minutesOf(entry.ends) }));
  const zones = [...new Set(hours.map((entry) => entry.timeZone))];
  for (const zone of zones) {
    for (const { date, weekday } of datesAround(from, to, zone)) {
      if (skip.has(date)) continue;
      for (const entry of entries) {
        if (entry.timeZone !== zone || entry.weekday !== weekday) continue;
        const span = { start: instantOf(date, entry.from, zone), end: instantOf(date, entry.to, zone) };
        if (span.start < span.end && span.end > from && span.start < to) spans.push(span);
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Spans sorted and joined where they overlap or touch: what `covers` and `hits` search. */
export function merged(spans: readonly Span[]): Span[] {
  const joined: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = joined.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else joined.push({ ...span });
  }
  return joined;
}

/** The index of the last of the merged spans starting at or before `instant` (-1: none). */
function lastStartingBy(spans: readonly Span[], instant: number): number {
  let low = 0;
  let high = spans.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((spans[middle]?.start ?? 0) <= instant) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Whether one of the merged spans holds all of `span`. */
function covers(spans: readonly Span[], span: Span): boolean {
  const around = spans[lastStartingBy(spans, span.start)];
  return around !== undefined && span.end <= around.end;
}

/** Whether any of the merged spans overlaps `span`. */
function hits(spans: readonly Span[], span: Span): boolean {
  // The last span starting before `span` ends is the only one that can reach into it.
  const before = spans[lastStartingBy(spans, span.end - 1)];
  return before !== undefined && before.end > span.start;
}

/** The UTC dates around [from, to) (datesAround), as a key of the spans kept below. */
const rangeKey = (from: number, to: number) =>
  `${new Date(from - 2 * DAY).toISOString().slice(0, 10)}|${new Date(to + 2 * DAY).toISOString().slice(0, 10)}`;

/**
 * Weekly hours as instants over the dates around [from, to), kept by those
 * dates and the hours themselves: a day's requests, and the members who keep
 * the same hours, share one computation. Spans outside [from, to) are kept
 * too (a slot is only ever checked inside its window).
 */
const keptSpans = remembered<{ spans: Span[] }>(() => ({ spans: [] }), 2_000);

function memberHours(hours: SlotMember['hours'], from: number, to: number): Span[] {
  const kept = keptSpans(`m|${rangeKey(from, to)}|${JSON.stringify(hours)}`);
  if (kept.spans.length === 0 && hours.length > 0) kept.spans = merged(weeklySpans(hours, from - DAY, to + DAY));
  return kept.spans;
}

/** A place's openings as instants around [from, to), holidays left out, in time order (not joined: each has its own grid of starts). */
function placeOpenings(place: SlotPlace, from: number, to: number): Span[] {
  const kept = keptSpans(
    `p|${rangeKey(from, to)}|${place.timeZone}|${JSON.stringify(place.hours)}|${place.holidays.join()}`,
  );
  if (kept.spans.length === 0 && place.hours.length > 0) {
    kept.spans = weeklySpans(
      place.hours.map((entry) => ({ ...entry, timeZone: place.timeZone })),
      from - DAY,
      to + DAY,
      new Set(place.holidays),
    );
  }
  return kept.spans;
}

/** The free slots of `query`, in time order. */
export function freeSlots(query: SlotQuery): Slot[] {
  const { kind, place, members, now } = query;
  const duration = kind.durationMinutes * MINUTE;
  const earliest = Math.max(query.from, now + kind.minimumNoticeHours * HOUR);
  const latest = Math.min(query.to, now + kind.horizonDays * DAY);
  if (earliest >= latest || members.length === 0) return [];

  const openings = placeOpenings(place, earliest, latest + duration);
  const working = members.map((member) => ({
    id: member.id,
    hours: memberHours(member.hours, earliest, latest + duration),
    timeOff: merged(member.timeOff),
    blocked: merged(member.blocked),
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
      const isFree = (member: (typeof working)[number]) =>
        covers(member.hours, appointment) && !hits(member.timeOff, appointment) && !hits(member.blocked, held);
      const free = query.everyMember
        ? working.filter(isFree).map((member) => member.id)
        : [working.find(isFree)?.id].filter((id) => id !== undefined);
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
