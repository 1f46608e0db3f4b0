/**
 * Mérida's wall clock (America/Merida, UTC-6 all year since 2022) for the
 * next contact (issue #26): the panel enters and shows it in Mérida's time
 * whatever the phone's own zone, the API carries instants (ISO 8601, UTC).
 * Browser-safe.
 */
export const MERIDA_ZONE = 'America/Merida';

const WALL = new Intl.DateTimeFormat('en-CA', {
  timeZone: MERIDA_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "2026-11-25T10:00": the instant on Mérida's clock, as a datetime-local input holds it. */
export function meridaWallTime(instant: string | Date): string {
  const parts = Object.fromEntries(WALL.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The instant (ISO, UTC) when Mérida's clock shows `wall` ("2026-11-25T10:00"); null when it is not one. */
export function fromMeridaWallTime(wall: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(wall)) return null;
  const asUtc = Date.parse(`${wall}:00Z`);
  if (Number.isNaN(asUtc)) return null;
  // The zone's offset at that moment (the rules may change; Intl knows them).
  const offset = Date.parse(`${meridaWallTime(new Date(asUtc))}:00Z`) - asUtc;
  const instant = new Date(asUtc - offset);
  return meridaWallTime(instant) === wall ? instant.toISOString() : null;
}

/** Mérida's date `days` after today's, at `time` ("10:00"), as an instant: a proposed next contact. */
export function meridaDaysAhead(days: number, time: string, now = new Date()): string {
  const today = meridaWallTime(now).slice(0, 10);
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return fromMeridaWallTime(`${date.toISOString().slice(0, 10)}T${time}`) ?? now.toISOString();
}

const SHOWN = new Intl.DateTimeFormat('es-MX', {
  timeZone: MERIDA_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});

/** "mar, 25 nov, 10:00 a.m.": a next contact in a reminder's notification (it is near: no year), in Mérida's time. */
export const formatNextContact = (instant: string): string => SHOWN.format(new Date(instant));

/** Whether the next contact's moment has passed (a warning, never a refusal). */
export const isPast = (instant: string, now = Date.now()): boolean => Date.parse(instant) <= now;

/** Whether a next contact is "vencido": set for a day before today in Mérida (the server's OVERDUE, decision 0053). */
export const isOverdue = (instant: string, now: Date = new Date()): boolean => meridaDayOf(instant) < meridaDayOf(now);

const CLOCK = new Intl.DateTimeFormat('es-MX', { timeZone: MERIDA_ZONE, hour: 'numeric', minute: '2-digit' });
const DAY_NAME = new Intl.DateTimeFormat('es-MX', {
  timeZone: MERIDA_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** "5:31 p.m.": a message's time on Mérida's clock (issue #27). */
export const formatMeridaClock = (instant: string): string => CLOCK.format(new Date(instant));

/** "martes, 24 de noviembre de 2026": a conversation's day separator, in Mérida. */
export const formatMeridaDay = (instant: string): string => DAY_NAME.format(new Date(instant));

/** "2026-11-24": the instant's day in Mérida (to group messages by day). */
export const meridaDayOf = (instant: string | Date): string => meridaWallTime(instant).slice(0, 10);
