/**
 * One Intl.DateTimeFormat per use and clock: making one costs far more than
 * using it (a booking's profile spent 153 ms of 300 bookings making them).
 * `use` names the options (each caller passes its own constant ones).
 */
const FORMATS = new Map<string, Intl.DateTimeFormat>();

export function clockFormat(
  use: string,
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${use}|${timeZone}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    FORMATS.set(key, format);
  }
  return format;
}

/** The parts of `instant` in `format`, by type (weekday, day, month, hour…). */
export function clockParts(format: Intl.DateTimeFormat, instant: number): Record<string, string> {
  return Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
}
