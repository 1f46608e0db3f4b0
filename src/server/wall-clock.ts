import { TZDate } from '@date-fns/tz';

/**
 * The instant (milliseconds since the epoch) of a wall-clock time in `timeZone`: what the appointments'
 * slots and the campaign report's months both start from. A month or a day past its end rolls over, as
 * Date's do (month 12 of 2026 is January 2027); a time the clock skips moves forward by the gap.
 */
export function wallClockInstant(
  year: number,
  monthIndex: number,
  day: number,
  minutes: number,
  timeZone: string,
): number {
  return new TZDate(year, monthIndex, day, Math.floor(minutes / 60), minutes % 60, timeZone).getTime();
}
