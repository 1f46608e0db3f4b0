/**
 * "Hoy" (issue #26): the day's list an adviser opens the panel on, shared by
 * the panel and the function. Browser-safe: no server import.
 */
import * as z from 'zod/mini';
import type { AppointmentStatus } from '../appointments/booking.ts';
import type { AppointmentSource, ContactSummary } from './contacts.ts';

/** In this order on the screen: overdue and today's next contacts, new leads nobody has touched, the rest. */
export const TODAY_SECTIONS = ['overdue', 'today', 'new', 'rest'] as const;
export type TodaySection = (typeof TODAY_SECTIONS)[number];

export const TODAY_SECTION_LABELS: Record<TodaySection, string> = {
  overdue: 'Contactos vencidos',
  today: 'Para hoy',
  new: 'Nuevos sin atender',
  rest: 'Los demás en seguimiento',
};

/** What an empty section says. */
export const TODAY_SECTION_EMPTY: Record<TodaySection, string> = {
  overdue: 'Nada vencido.',
  today: 'Nada agendado para hoy.',
  new: 'Ningún prospecto nuevo espera.',
  rest: 'Nadie más en seguimiento.',
};

/** `mine`: the member's own contacts ("Mis prospectos"); `all`: the whole team's (administrators). */
export const TODAY_SCOPES = ['mine', 'all'] as const;
export type TodayScope = (typeof TODAY_SCOPES)[number];

export const todayQuerySchema = z.object({
  scope: z.optional(z.enum(TODAY_SCOPES, { error: 'Alcance desconocido.' })),
  section: z.optional(z.enum(TODAY_SECTIONS, { error: 'Sección desconocida.' })),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

export interface TodaySectionPage {
  items: ContactSummary[];
  /** Every contact of the section (the heading's number). */
  total: number;
  nextCursor: string | null;
}

/** An appointment as "Hoy" shows it (issue #40, decision 0062): when, what, where, with whom. */
export interface TodayAppointment {
  id: string;
  kindName: string;
  placeName: string;
  /** The place's IANA zone: the time is shown on its clock (and Mérida's when they differ). */
  timeZone: string;
  start: string;
  end: string;
  status: AppointmentStatus;
  source: AppointmentSource;
  contact: { id: string; name: string };
  /** Who gives it (the team's view names them); null for a removed member's. */
  member: { id: string; name: string } | null;
}

/** At most this many unmarked past appointments come with "Hoy" (the oldest first; `total` counts them all). */
export const UNMARKED_PAGE = 20;

/** GET /api/admin/today: each section's first page and total, and the day they were computed for (Mérida). */
export interface TodayAgenda {
  scope: TodayScope;
  day: string;
  sections: Record<TodaySection, TodaySectionPage>;
  appointments: {
    /** The day's appointments (Mérida's day), cancelled ones left out, by start. */
    today: TodayAppointment[];
    /** Confirmed appointments of the days before still without "Asistió" / "No asistió", oldest first. */
    unmarked: TodayAppointment[];
    unmarkedTotal: number;
  };
}

// The Prospectos list filters a section's figure links to live with the list's (contacts.ts).
export { AGENDA_FILTERS, AGENDA_LABELS, type AgendaFilter } from './contacts.ts';
