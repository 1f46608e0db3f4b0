/**
 * An appointment's day and time as the buyer reads them, on the place's clock
 * (its IANA zone), in Mexican Spanish: the browser's own Intl, no library.
 */

const formatter = (timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('es-MX', { timeZone, ...options });

/** "hora de Alemania": the zone's name, when the place is not on Mérida's clock (the team's). */
export function zoneName(timeZone: string): string | null {
  if (timeZone === 'America/Merida') return null;
  const parts = formatter(timeZone, { timeZoneName: 'shortGeneric' }).formatToParts(new Date());
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** "10:30" on the zone's clock. */
export function clockOf(instant: string | number, timeZone: string): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant));
}

/** "sábado 6 de marzo" on the zone's calendar. */
export function dayOf(instant: string | number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(instant));
}

/** "sábado 6 de marzo, 10:00 (hora de Alemania)". */
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
