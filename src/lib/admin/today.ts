/**
 * "Hoy" (issue #26): the day's list an adviser opens the panel on, shared by
 * the panel and the function. Browser-safe: no server import.
 */
import * as z from 'zod/mini';
import type { ContactSummary } from './contacts.ts';

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

/** GET /api/admin/today: each section's first page and total, and the day they were computed for (Mérida). */
export interface TodayAgenda {
  scope: TodayScope;
  day: string;
  sections: Record<TodaySection, TodaySectionPage>;
}

// The Prospectos list filters a section's figure links to live with the list's (contacts.ts).
export { AGENDA_FILTERS, AGENDA_LABELS, type AgendaFilter } from './contacts.ts';
