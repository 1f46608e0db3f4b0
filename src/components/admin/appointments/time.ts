/**
 * The calendar's dates and times on Mérida's clock (the team's; UTC-6 all
 * year), whatever the phone's own zone. Dates are "2026-12-01" strings: the
 * arithmetic is on UTC noon, where no zone's rules can move a date.
 */
export const TEAM_ZONE = 'America/Merida';

const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: TEAM_ZONE });
const CLOCK = new Intl.DateTimeFormat('es-MX', {
  timeZone: TEAM_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const LONG = new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const SHORT = new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });

/** The Mérida date of an instant. */
export const meridaDate = (instant: string | number | Date): string => DAY.format(new Date(instant));

/** "09:30": an instant on Mérida's clock. */
export const meridaClock = (instant: string): string => CLOCK.format(new Date(instant));

const noon = (date: string) => new Date(`${date}T12:00:00Z`);

export function addDays(date: string, days: number): string {
  const moved = noon(date);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** The Monday of the week of `date`. */
export function mondayOf(date: string): string {
  const weekday = noon(date).getUTCDay();
  return addDays(date, weekday === 0 ? -6 : 1 - weekday);
}

/** Whether the string is a real date ("2026-02-30" is not). */
export const isDate = (value: string | null): value is string =>
  value !== null &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(noon(value).getTime()) &&
  noon(value).toISOString().startsWith(value);

/** "Martes" from "martes": only the first letter (CSS's capitalize would write "1 De Diciembre"). */
export const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "martes 1 de diciembre". */
export const longDay = (date: string): string => LONG.format(noon(date));
/** "Mar, 1 dic". */
export const shortDay = (date: string): string => upperFirst(SHORT.format(noon(date)));
