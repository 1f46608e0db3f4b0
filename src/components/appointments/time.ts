/**
 * An appointment's day and time as the buyer reads them, on the place's clock
 * (its IANA zone), in Mexican Spanish: the browser's own Intl, no library.
 */

import { clockName } from '../../lib/appointments/clock.ts';

const formatter = (timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('es-MX', { timeZone, ...options });

/**
 * "hora de Berlín": whose clock, when the place is not on Mérida's (the
 * team's). Named from our list, not the browser's zone names (Chromium's
 * Spanish said "Mexico City").
 */
export function zoneName(timeZone: string): string | null {
  if (timeZone === 'America/Merida') return null;
  return `hora de ${clockName(timeZone)}`;
}

/** "10:30" on the zone's clock. */
export function clockOf(instant: string | number, timeZone: string): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

/** "sábado 6 de marzo" on the zone's calendar. */
export function dayOf(instant: string | number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(instant));
}

/** "sábado 6 de marzo, 10:00 (hora de Berlín)". */
export function momentOf(instant: string | number, timeZone: string): string {
  const zone = zoneName(timeZone);
  return `${dayOf(instant, timeZone)}, ${clockOf(instant, timeZone)}${zone ? ` (${zone})` : ''}`;
}

/** The date ("2027-03-06") and its parts ("sáb", "6", "mar") on the zone's calendar. */
export function dateParts(instant: string | number, timeZone: string) {
  const date = new Date(instant);
  const parts = formatter(timeZone, { weekday: 'short', day: 'numeric', month: 'short' }).formatToParts(date);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value.replace('.', '') ?? '';
  return {
    key: new Intl.DateTimeFormat('en-CA', { timeZone }).format(date),
    weekday: part('weekday'),
    number: part('day'),
    month: part('month'),
  };
}
