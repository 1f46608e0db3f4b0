import * as z from 'zod/mini';
import '../forms/errors.ts'; // no library wording reaches a visitor
import {
  attributionShape,
  consentShape,
  nameField,
  optionalEmailField,
  PRIVACY_ACCEPTED_AT_FIELD,
  PRIVACY_VERSION_FIELD,
  phoneField,
} from '../forms/fields.ts';

/**
 * The public booking's shapes (issue #40, decision 0058): the free slots
 * asked for and a booking sent, shared by the endpoints
 * (netlify/functions/appointments.ts) and the future slot picker, so both
 * check the same rules with the same Spanish messages. The kind's and the
 * place's ids are checked against src/data/appointments.json by the server.
 */

/** The longest window of free slots one request may ask for, in days. */
export const MAX_SLOT_WINDOW_DAYS = 62;

const ID = /^[a-z0-9][a-z0-9-]{0,59}$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const idField = (missing: string) => z.string({ error: missing }).check(z.regex(ID, missing));

const dateField = (missing: string) =>
  z.string({ error: missing }).check(
    z.regex(DATE, missing),
    z.refine(
      (value) =>
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      missing,
    ),
  );

const KIND_MISSING = 'Elige el tipo de cita.';
const PLACE_MISSING = 'Elige el lugar de la cita.';

/** A window of dates of the place's calendar, both included: the slots' and the buyer's page's. */
const datesShape = {
  from: dateField('Escribe la fecha inicial como 2027-03-01 (año-mes-día).'),
  to: dateField('Escribe la fecha final como 2027-03-31 (año-mes-día).'),
};
const datesChecks = [
  z.refine<{ from: string; to: string }>((query) => query.from <= query.to, {
    message: 'La fecha final debe ser igual o posterior a la inicial.',
    path: ['to'],
  }),
  z.refine<{ from: string; to: string }>(
    (query) =>
      Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`) < MAX_SLOT_WINDOW_DAYS * 86_400_000,
    { message: `Pide como máximo ${MAX_SLOT_WINDOW_DAYS} días a la vez.`, path: ['to'] },
  ),
] as const;

/** GET /api/appointments/slots?kind=…&place=…&from=AAAA-MM-DD&to=AAAA-MM-DD: dates of the place's calendar, both included. */
export const slotsQuerySchema = z
  .object({ kind: idField(KIND_MISSING), place: idField(PLACE_MISSING), ...datesShape })
  .check(...datesChecks);

/** The dates of a slots query alone (the buyer's page asks for its appointment's kind and place). */
export const slotDatesSchema = z.object(datesShape).check(...datesChecks);

export type SlotsQuery = z.output<typeof slotsQuerySchema>;

/** One free slot as the endpoint answers it: instants in UTC (ISO 8601). */
export interface FreeSlot {
  start: string;
  end: string;
}

export interface SlotsAnswer {
  kind: string;
  place: string;
  /** The place's IANA zone: the picker shows the slots on its clock. */
  timeZone: string;
  durationMinutes: number;
  slots: FreeSlot[];
}

/** POST /api/appointments: a visitor books a slot (the Idempotency-Key header makes a retry safe). */
export const bookingSchema = z.object({
  name: nameField,
  phone: phoneField,
  // Optional: the confirmation with its calendar file (.ics) also goes there.
  email: z.optional(optionalEmailField),
  kind: idField(KIND_MISSING),
  place: idField(PLACE_MISSING),
  start: z.iso.datetime({ offset: true, error: 'Elige un horario de la lista.' }),
  // The privacy notice the visitor saw, as every form sends it (the booking records its version).
  [PRIVACY_VERSION_FIELD]: consentShape[PRIVACY_VERSION_FIELD],
  [PRIVACY_ACCEPTED_AT_FIELD]: consentShape[PRIVACY_ACCEPTED_AT_FIELD],
  // Where the visit came from, as every form sends it: the contact a booking creates keeps it as its first touch.
  ...attributionShape,
});

type BookingOutput = z.output<typeof bookingSchema>;
type TouchField = keyof typeof attributionShape;
/** A booking as the server takes it: the visit's touch only from the site (the panel, WhatsApp and the voice agent have none). */
export type Booking = Omit<BookingOutput, TouchField> & Partial<Pick<BookingOutput, TouchField>>;

export type AppointmentStatus = 'por_pagar' | 'confirmada' | 'cancelada' | 'asistio' | 'no_asistio';

/** The answer to a booking (201, and the same again for a replay of its key). */
export interface BookingAnswer {
  id: string;
  status: AppointmentStatus;
  kind: string;
  place: string;
  start: string;
  end: string;
  /** A paid kind's hold: the time is kept until then, while the payment is made. */
  holdUntil: string | null;
  priceMxn: number | null;
  /**
   * Where a "por pagar" is paid when online payments are on (issue #41): the
   * site's page /pagar?t=<token>; absent or null, the site's payment link.
   */
  payUrl?: string | null;
}

/** The visitor's texts of the endpoints: in words.ts, which the islands import without zod. */
export { BOOKING_MESSAGES } from './words.ts';
