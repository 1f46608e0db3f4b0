import type { z } from 'zod';
import raw from './appointments.json' with { type: 'json' };
import { parseData } from './problems.ts';
import { type appointmentKindSchema, type appointmentPlaceSchema, appointmentsSchema, WEEKDAYS } from './schemas.ts';

/**
 * The kinds of appointment (a visit, a consultation) and the places they
 * happen in, with their clocks, hours and holidays (issue #40): marketing and
 * sales edit src/data/appointments.json (the content editor's "Citas"), the
 * build checks it against its schema (schemas.ts) and the rules across its
 * lists (rules.ts). The server computes the free slots from it
 * (src/server/appointments/).
 */
export type AppointmentKind = z.output<typeof appointmentKindSchema>;
export type AppointmentPlace = z.output<typeof appointmentPlaceSchema>;
export type Weekday = (typeof WEEKDAYS)[number];

export const APPOINTMENTS = parseData(appointmentsSchema, raw, 'src/data/appointments.json');

/** The kind of appointment with this id, if any. */
export function appointmentKind(id: string): AppointmentKind | undefined {
  return APPOINTMENTS.kinds.find((kind) => kind.id === id);
}

/** The place with this id, if any. */
export function appointmentPlace(id: string): AppointmentPlace | undefined {
  return APPOINTMENTS.places.find((place) => place.id === id);
}

/** ISO day of the week (1 Monday … 7 Sunday) of a day as the data writes it. */
export function isoWeekday(day: Weekday): number {
  return WEEKDAYS.indexOf(day) + 1;
}

/**
 * The kinds `ids` as the slot picker offers them (src/components/appointments/),
 * with their places: what the page writes into the island's props, no more.
 */
export function pickerKinds(ids: readonly string[]) {
  return ids.flatMap((id) => {
    const kind = appointmentKind(id);
    if (!kind) return [];
    const places = kind.places.flatMap((placeId) => {
      const place = appointmentPlace(placeId);
      return place ? [{ id: place.id, name: place.name, timeZone: place.timeZone }] : [];
    });
    const { name, description, priceMxn, durationMinutes, horizonDays } = kind;
    return [{ id, name, description, priceMxn, durationMinutes, horizonDays, places }];
  });
}
