import * as z from 'zod/mini';
import type { PaymentMethod, PaymentStatus } from '../payments/words.ts';
import '../forms/errors.ts'; // no library wording reaches a member
import type { AppointmentStatus } from './booking.ts';

/**
 * The panel's side of the appointments (issue #40, decision 0061): a
 * member's availability (weekly hours on a wall clock, time off, the kinds
 * they give), the calendar and a booking for a contact. Shared by the
 * endpoints (netlify/functions/admin-availability.ts, admin-appointments.ts)
 * and the panel's views, so both check the same rules with the same Spanish
 * messages. Browser-safe (zod mini, no data file).
 */

/** The zones a member may keep their hours in: the team's offices. */
export const MEMBER_TIME_ZONES = ['America/Merida', 'America/Mexico_City', 'America/Cancun', 'Europe/Berlin'] as const;
export type MemberTimeZone = (typeof MEMBER_TIME_ZONES)[number];
export const DEFAULT_TIME_ZONE: MemberTimeZone = 'America/Merida';
export const TIME_ZONE_LABELS: Record<MemberTimeZone, string> = {
  'America/Merida': 'Mérida',
  'America/Mexico_City': 'Ciudad de México',
  'America/Cancun': 'Cancún',
  'Europe/Berlin': 'Berlín',
};

/** ISO weekdays (1 Monday … 7 Sunday) by name, in the week's order. */
export const WEEKDAY_NAMES = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;

export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  por_pagar: 'Por pagar',
  confirmada: 'Confirmada',
  cancelada: 'Cancelada',
  asistio: 'Asistió',
  no_asistio: 'No asistió',
};

/** The most ranges of weekly hours one member keeps (several a day, every day). */
export const MAX_WEEKLY_RANGES = 42;
/** The longest calendar window one request may ask for, in days. */
export const MAX_CALENDAR_DAYS = 42;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const WALL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ID = /^[a-z0-9][a-z0-9-]{0,59}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

export const weeklyRangeSchema = z
  .object({
    weekday: z
      .number({ error: 'Elige el día.' })
      .check(z.int('Elige el día.'), z.gte(1, 'Elige el día.'), z.lte(7, 'Elige el día.')),
    starts: z
      .string({ error: 'Escribe la hora de inicio (09:00).' })
      .check(z.regex(CLOCK, 'Escribe la hora de inicio (09:00).')),
    ends: z
      .string({ error: 'Escribe la hora de fin (18:00).' })
      .check(z.regex(CLOCK, 'Escribe la hora de fin (18:00).')),
  })
  .check(
    z.refine((range) => minutes(range.starts) < minutes(range.ends), {
      message: 'La hora de fin debe ser posterior a la de inicio.',
      path: ['ends'],
    }),
  );
export type WeeklyRange = z.output<typeof weeklyRangeSchema>;

/** Whether two ranges of one weekday overlap. */
export function overlappingDay(ranges: readonly WeeklyRange[]): number | null {
  const sorted = [...ranges].sort((a, b) => a.weekday - b.weekday || minutes(a.starts) - minutes(b.starts));
  for (let index = 1; index < sorted.length; index++) {
    const before = sorted[index - 1];
    const range = sorted[index];
    if (before && range && before.weekday === range.weekday && minutes(range.starts) < minutes(before.ends))
      return range.weekday;
  }
  return null;
}

const AVAILABILITY_WORDS = {
  list: 'Revisa tu horario semanal.',
  tooMany: `Deja como máximo ${MAX_WEEKLY_RANGES} horarios por semana.`,
  overlap: 'Dos horarios del mismo día se enciman. Únelos o corrígelos.',
  kinds: 'Elige los tipos de cita que das.',
  kind: 'Elige tipos de cita de la lista.',
};

/** The first problem of a week's ranges, in the words the panel shows; null when there is none. */
export function weeklyProblem(weekly: unknown): string | null {
  if (!Array.isArray(weekly)) return AVAILABILITY_WORDS.list;
  if (weekly.length > MAX_WEEKLY_RANGES) return AVAILABILITY_WORDS.tooMany;
  for (const range of weekly) {
    const checked = weeklyRangeSchema.safeParse(range);
    if (!checked.success) return checked.error.issues[0]?.message ?? AVAILABILITY_WORDS.list;
  }
  return overlappingDay(weekly) === null ? null : AVAILABILITY_WORDS.overlap;
}

/** The first problem of a list of kinds' ids; null when there is none. */
export function kindsProblem(kinds: unknown): string | null {
  if (!Array.isArray(kinds)) return AVAILABILITY_WORDS.kinds;
  if (kinds.length > 20 || !kinds.every((kind) => typeof kind === 'string' && ID.test(kind)))
    return AVAILABILITY_WORDS.kind;
  return null;
}

/**
 * PATCH /api/admin/availability/{member}: the member's weekly hours and kinds, replaced as a whole.
 * Its lists are checked item by item (weeklyProblem, kindsProblem) rather than with zod's `array`: zod-mini
 * is one module, so whatever the panel uses of it joins the chunk every public form loads (`array` was
 * 0.4 KB of it, issue #40's public budgets).
 */
export const availabilitySchema = z.object({
  timeZone: z.enum(MEMBER_TIME_ZONES, { error: 'Elige una zona horaria de la lista.' }),
  weekly: z.custom<WeeklyRange[]>((value) => weeklyProblem(value) === null, {
    error: (issue) => weeklyProblem(issue.input) ?? AVAILABILITY_WORDS.list,
  }),
  kinds: z.custom<string[]>((value) => kindsProblem(value) === null, {
    error: (issue) => kindsProblem(issue.input) ?? AVAILABILITY_WORDS.kinds,
  }),
});
export type AvailabilityInput = z.output<typeof availabilitySchema>;

/** POST /api/admin/availability/{member}/time-off: wall-clock times ("2026-12-24T09:00") on the member's zone. */
export const timeOffSchema = z
  .object({
    start: z.string({ error: 'Escribe cuándo empieza.' }).check(z.regex(WALL, 'Escribe cuándo empieza.')),
    end: z.string({ error: 'Escribe cuándo termina.' }).check(z.regex(WALL, 'Escribe cuándo termina.')),
    reason: z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(200, 'El motivo es demasiado largo (máximo 200 caracteres).'),
        z.refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'Escribe el motivo en una sola línea.'),
      ),
    ),
  })
  .check(
    z.refine((input) => input.start < input.end, { message: 'El fin debe ser posterior al inicio.', path: ['end'] }),
  );
export type TimeOffInput = z.output<typeof timeOffSchema>;

/** GET /api/admin/appointments?from=AAAA-MM-DD&to=AAAA-MM-DD[&member=id] or ?contact=id. */
export const calendarQuerySchema = z.union([
  z
    .object({
      from: z.string().check(z.regex(DATE, 'Escribe la fecha inicial como 2027-03-01.')),
      to: z.string().check(z.regex(DATE, 'Escribe la fecha final como 2027-03-07.')),
      member: z.optional(z.string().check(z.regex(UUID, 'Elige un miembro del equipo.'))),
    })
    .check(
      z.refine(
        (query) => {
          const days = (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / 86_400_000;
          return days >= 0 && days < MAX_CALENDAR_DAYS;
        },
        { message: `Pide de 1 a ${MAX_CALENDAR_DAYS} días a la vez.`, path: ['to'] },
      ),
    ),
  z.object({ contact: z.string().check(z.regex(UUID, 'No encontramos este prospecto.')) }),
]);
export type CalendarQuery = z.output<typeof calendarQuerySchema>;

/** POST /api/admin/appointments: a member books a free slot for a contact (their phone and name, as they are). */
export const panelBookingSchema = z.object({
  contactId: z
    .string({ error: 'No encontramos este prospecto.' })
    .check(z.regex(UUID, 'No encontramos este prospecto.')),
  kind: z.string({ error: 'Elige el tipo de cita.' }).check(z.regex(ID, 'Elige el tipo de cita.')),
  place: z.string({ error: 'Elige el lugar de la cita.' }).check(z.regex(ID, 'Elige el lugar de la cita.')),
  start: z.iso.datetime({ offset: true, error: 'Elige un horario de la lista.' }),
});
export type PanelBooking = z.output<typeof panelBookingSchema>;

export interface TimeOffView {
  id: string;
  /** Instants (ISO, UTC) and the same on the member's wall clock ("2026-12-24T09:00"). */
  start: string;
  end: string;
  startWall: string;
  endWall: string;
  reason: string | null;
}

/** A time off just added: with the member's appointments that still hold a time inside it (they stand; moved by hand). */
export interface TimeOffAdded extends TimeOffView {
  appointmentsDuring: number;
}

export interface AvailabilityView {
  member: { id: string; name: string };
  timeZone: MemberTimeZone;
  weekly: WeeklyRange[];
  timeOff: TimeOffView[];
  kinds: string[];
  /** Every kind of the data, for the checkboxes. */
  allKinds: { id: string; name: string }[];
  /** The members whose availability this member may edit (an administrator: the team; otherwise only themselves). */
  members: { id: string; name: string }[];
}

export interface CalendarItem {
  id: string;
  start: string;
  end: string;
  status: AppointmentStatus;
  source: 'sitio' | 'panel' | 'whatsapp' | 'voz';
  kind: string;
  kindName: string;
  place: string;
  placeName: string;
  placeTimeZone: string;
  contact: { id: string; name: string };
  member: { id: string; name: string } | null;
  priceMxn: number | null;
  holdUntil: string | null;
  /** Its payment as the webhook left it (issue #41): the furthest of its checkouts; null when none. */
  payment: { status: PaymentStatus; method: PaymentMethod | null } | null;
}

export interface CalendarAnswer {
  items: CalendarItem[];
  /** Whose calendar: a member's id, or null for the whole team (administrators). */
  member: string | null;
}

/** The kinds and places a member can book from the panel (the dialog's selects). */
export interface BookingOptions {
  kinds: {
    id: string;
    name: string;
    durationMinutes: number;
    priceMxn: number | null;
    places: { id: string; name: string; timeZone: string }[];
  }[];
}

export const PANEL_APPOINTMENT_MESSAGES = {
  invalidAvailability: 'Revisa tu disponibilidad.',
  invalidTimeOff: 'Revisa las fechas de tu ausencia.',
  invalidQuery: 'Revisa las fechas del calendario.',
  invalidBooking: 'Revisa los datos de la cita.',
  unknownKind: 'Ese tipo de cita no existe. Recarga la página.',
  memberNotFound: 'No encontramos a ese miembro del equipo.',
  timeOffNotFound: 'Esa ausencia ya no existe.',
  contactNotFound: 'No encontramos este prospecto.',
  othersForbidden: 'Solo un administrador puede ver o cambiar la agenda de otra persona.',
  invalidWallTime: 'Esa fecha y hora no existen en tu zona horaria.',
} as const;

/** POST /api/admin/appointments/{id}/move: the team moves an appointment to another free slot of its kind and place. */
export const moveSchema = z.object({
  start: z.iso.datetime({ offset: true, error: 'Elige un horario de la lista.' }),
});
export type MoveInput = z.output<typeof moveSchema>;

/** What the panel's move needs of an appointment (MoveAppointment). */
export type MovedAppointment = Pick<CalendarItem, 'id' | 'kind' | 'kindName' | 'place' | 'contact'>;

/** What the move answers: where the appointment is now; `moved` false when it was already there. */
export interface MoveAnswer {
  id: string;
  start: string;
  end: string;
  moved: boolean;
  /** Who gives it now (another member when its own was not free then). */
  memberId: string | null;
}
