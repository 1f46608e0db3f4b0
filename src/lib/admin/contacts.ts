/**
 * The follow-up of a contact (issue #10), shared by the panel (browser) and
 * the functions (server): states, reasons, forms, filters, the change and note
 * schemas, and what the team reads for each. Browser-safe: no server import.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { CONTACT_KINDS, type ContactKind, LEAD_FORMS, type LeadForm, type LeadKind } from '../leads/kinds.ts';
import { greetingName } from '../person-name.ts';
import { fromMeridaWallTime } from './merida-time.ts';
import type { DeliveryView } from './notifications.ts';
import { multiLineChecks, singleLineChecks } from './text.ts';

/**
 * In the order a contact advances. visita_agendada and visito (issue #40,
 * decision 0062) are moved to by the appointments themselves (a booking, an
 * "Asistió"), and by hand like any other.
 */
export const CONTACT_STATES = [
  'nuevo',
  'contactado',
  'en_seguimiento',
  'visita_agendada',
  'visito',
  'cerrado_ganado',
  'cerrado_perdido',
] as const;
export type ContactState = (typeof CONTACT_STATES)[number];

/** Won or lost: off the day's lists, without a next contact. */
export const isClosed = (state: ContactState): boolean => state === 'cerrado_ganado' || state === 'cerrado_perdido';

export const STATE_LABELS: Record<ContactState, string> = {
  nuevo: 'Nuevo',
  contactado: 'Contactado',
  en_seguimiento: 'En seguimiento',
  visita_agendada: 'Visita agendada',
  visito: 'Visitó',
  cerrado_ganado: 'Cerrado: ganado',
  cerrado_perdido: 'Cerrado: perdido',
};

export const LOST_REASONS = ['sin_presupuesto', 'sin_terreno', 'eligio_otra_opcion', 'no_responde', 'otro'] as const;
export type LostReason = (typeof LOST_REASONS)[number];

export const LOST_REASON_LABELS: Record<LostReason, string> = {
  sin_presupuesto: 'Sin presupuesto',
  sin_terreno: 'Sin terreno',
  eligio_otra_opcion: 'Eligió otra opción',
  no_responde: 'No responde',
  otro: 'Otro',
};

// The forms a lead can come from are the registry's (lib/leads/kinds.ts).
// The kinds of contact are the registry's (lib/leads/kinds.ts), which names each lead kind's.
export { CONTACT_KINDS, type ContactKind, FORM_LABELS, LEAD_FORMS, type LeadForm, leadForm } from '../leads/kinds.ts';

/** The Prospectos list filter that shows what a section of "Hoy" counts (the figure's link). */
export const AGENDA_FILTERS = ['vencidos', 'hoy', 'nuevos', 'sin_atender'] as const;
export type AgendaFilter = (typeof AGENDA_FILTERS)[number];
export const AGENDA_LABELS: Record<AgendaFilter, string> = {
  vencidos: 'Próximo contacto vencido',
  hoy: 'Próximo contacto hoy',
  nuevos: 'Nuevos sin atender',
  sin_atender: 'Sin atender (más de 24 h)',
};

export const KIND_LABELS: Record<ContactKind, string> = { comprador: 'Comprador', socio: 'Socio' };

/** A contact still `nuevo` this long after its first lead is "Sin atender". */
export const UNATTENDED_AFTER_HOURS = 24;
export const NOTE_MAX = 2000;

export const STALE_VERSION = 'Otra persona actualizó este prospecto. Recarga para ver los cambios.';
export const LOST_REASON_REQUIRED = 'Elige el motivo por el que se perdió.';

const isoDate = z.string({ error: 'Escribe una fecha válida.' }).check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Escribe una fecha válida.'),
  z.refine((value: string) => {
    const date = new Date(`${value}T00:00:00Z`);
    const year = Number(value.slice(0, 4));
    return year >= 1900 && year <= 2999 && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'Escribe una fecha válida.'),
);

/** An instant with its offset ("2026-11-25T16:00:00.000Z", "2026-11-25T10:00-06:00"). */
export const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const INVALID_MOMENT = 'Escribe una fecha y hora válidas.';
export const instantSchema = z.string({ error: INVALID_MOMENT }).check(
  z.regex(INSTANT_PATTERN, INVALID_MOMENT),
  z.refine((value: string) => {
    const year = Number(value.slice(0, 4));
    return (
      !Number.isNaN(Date.parse(value)) && year >= 1900 && year <= 2999 && isoDate.safeParse(value.slice(0, 10)).success
    );
  }, INVALID_MOMENT),
);

/**
 * A next contact: an instant, or a date alone (what the panel sent before
 * issue #26), which means 10:00 in Mérida (`nextContactInstant`).
 */
const nextContact = z.union([isoDate, instantSchema], { error: INVALID_MOMENT });

/** The instant a next contact means: a date alone is 10:00 on Mérida's clock. */
export function nextContactInstant(value: string): string {
  return value.length === 10 ? (fromMeridaWallTime(`${value}T10:00`) as string) : new Date(value).toISOString();
}

export const MODEL_UNKNOWN = 'Elige un modelo del catálogo.';
export const ESTIMATED_VALUE_MAX = 100_000_000;
export const ESTIMATED_VALUE_INVALID = `Escribe el valor estimado en pesos, sin decimales, de 0 a ${ESTIMATED_VALUE_MAX.toLocaleString('es-MX')}.`;

/** PATCH /api/admin/contacts/{id}: what changes, and the version the change was made on. */
export const contactChangeSchema = z
  .strictObject(
    {
      state: z.optional(z.enum(CONTACT_STATES, { error: 'Elige un estado de la lista.' })),
      lostReason: z.nullish(z.enum(LOST_REASONS, { error: 'Elige un motivo de la lista.' })),
      nextContactAt: z.nullish(nextContact),
      /** A member's id, or null to leave it unassigned (administrators only). */
      assignedTo: z.nullish(z.uuid('Elige a un miembro del equipo.')),
      /** The deal (the pipeline, decision 0041): the model of interest (an id of the catalogue), null for none. */
      modelId: z.nullish(z.string({ error: MODEL_UNKNOWN }).check(z.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, MODEL_UNKNOWN))),
      /** The deal's value in whole pesos when it is not the model's price; null for the catalogue's. */
      estimatedValue: z.nullish(
        z
          .int({ error: ESTIMATED_VALUE_INVALID })
          .check(z.gte(0, ESTIMATED_VALUE_INVALID), z.lte(ESTIMATED_VALUE_MAX, ESTIMATED_VALUE_INVALID)),
      ),
      /** The day the adviser expects to close the deal. */
      expectedCloseOn: z.nullish(isoDate),
      version: z.int({ error: 'Falta la versión del prospecto.' }).check(z.gte(1, 'Falta la versión del prospecto.')),
    },
    {
      error:
        'Solo se pueden cambiar el estado, el motivo, la fecha de próximo contacto, la asignación, el modelo, el valor estimado y el cierre esperado.',
    },
  )
  .check(
    z.refine((change) => change.state !== 'cerrado_perdido' || Boolean(change.lostReason), {
      message: LOST_REASON_REQUIRED,
      path: ['lostReason'],
    }),
  );
export type ContactChange = z.output<typeof contactChangeSchema>;

export const noteSchema = z.object({
  body: z
    .string({ error: 'Escribe la nota.' })
    .check(
      ...multiLineChecks,
      z.trim(),
      z.minLength(1, 'Escribe la nota.'),
      z.maxLength(NOTE_MAX, `Usa como máximo ${NOTE_MAX.toLocaleString('es-MX')} caracteres.`),
    ),
});

/** GET /api/admin/contacts: the list's filters, all optional. */
export const contactFilterSchema = z.object({
  q: z.optional(
    z.string().check(...singleLineChecks, z.trim(), z.maxLength(120, 'Busca con menos de 120 caracteres.')),
  ),
  state: z.optional(z.enum(CONTACT_STATES, { error: 'Estado desconocido.' })),
  kind: z.optional(z.enum(CONTACT_KINDS, { error: 'Tipo desconocido.' })),
  form: z.optional(z.enum(LEAD_FORMS, { error: 'Formulario desconocido.' })),
  campaign: z.optional(z.string().check(...singleLineChecks, z.trim(), z.maxLength(200, 'Campaña demasiado larga.'))),
  /** The first touch's ad (utm_content), as the campaign report's rows by ad group them (issue #43). */
  ad: z.optional(z.string().check(...singleLineChecks, z.trim(), z.maxLength(200, 'Anuncio demasiado largo.'))),
  /** The first touch's source (utm_source), as the campaign report groups them (issue #43). */
  source: z.optional(z.string().check(...singleLineChecks, z.trim(), z.maxLength(200, 'Fuente demasiado larga.'))),
  from: z.optional(isoDate),
  to: z.optional(isoDate),
  /** `me` ("Mis prospectos"), `none` (sin asignar) or a member's id. */
  assigned: z.optional(z.union([z.enum(['me', 'none']), z.uuid()], { error: 'Asignación desconocida.' })),
  /** What a figure of "Hoy" or "Métricas" counts (lib/admin/today.ts). */
  agenda: z.optional(z.enum(AGENDA_FILTERS, { error: 'Filtro desconocido.' })),
});
export type ContactFilter = z.output<typeof contactFilterSchema>;

/** One contact as the list and the contact view receive it. */
export interface ContactSummary {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  municipality: string | null;
  kinds: ContactKind[];
  state: ContactState;
  lostReason: LostReason | null;
  /** When to contact them next (ISO instant); the panel shows it in Mérida's time. */
  nextContactAt: string | null;
  /** Attempts to reach them: Llamar or WhatsApp pressed, or an outcome recorded without one. */
  attempts: number;
  createdAt: string;
  lastActivityAt: string;
  firstCampaign: string | null;
  /** The member who follows this contact. */
  assignedTo: { id: string; name: string } | null;
  requests: number;
  version: number;
  /** Still `nuevo` 24 hours after the first lead. */
  unattended: boolean;
}

export type TimelineEntry =
  | {
      type: 'request';
      at: string;
      form: LeadForm;
      kind: LeadKind;
      id: string;
      fields: [label: string, value: string][];
      /** Its notifications, one per channel that was on when it arrived. */
      deliveries: DeliveryView[];
    }
  | {
      type: 'event';
      at: string;
      kind: string;
      actor: string | null;
      from: string | null;
      to: string | null;
      /** An outcome's note. */
      detail?: string | null;
    }
  | {
      type: 'note';
      at: string;
      id: string;
      author: string;
      /** Who wrote it; null once their account is gone (then only an administrator may delete it). */
      authorId: string | null;
      body: string;
    }
  | {
      type: 'call';
      at: string;
      id: string;
      durationSeconds: number | null;
      endedReason: string | null;
      summary: string | null;
      /** Still running (issue #42). */
      inProgress?: boolean;
    };

/** A contact's deal (the pipeline): the model of interest, the value if overridden, the expected close day. */
export interface ContactDeal {
  modelId: string | null;
  /** Whole pesos; null means the model's catalogue price (lib/admin/catalogue.ts `dealValue`). */
  estimatedValue: number | null;
  /** YYYY-MM-DD. */
  expectedCloseOn: string | null;
}

export interface ContactDetail extends ContactSummary, ContactDeal {
  /** Whether what they do may be told to the ad platforms (CONTACT_MARKETING_CONSENT): off once they opposed it. */
  marketingConsent: boolean;
  /** Their last answer about it is a no (a WhatsApp press, or an opposition the team recorded). */
  marketingOpposed: boolean;
  firstTouch: Record<string, string>;
  lastTouch: Record<string, string>;
  timeline: TimelineEntry[];
}

/** What an adviser who tries to delete someone else's note is told (403). */
export const NOTE_NOT_YOURS = 'Solo puedes eliminar tus propias notas. Pide a un administrador que elimine esta.';

/** An adviser deletes only the notes they wrote; an administrator, any (the server decides, the panel hides the rest). */
export function mayDeleteNote(member: { id: string; admin: boolean }, note: { authorId: string | null }): boolean {
  return member.admin || note.authorId === member.id;
}

/** What the panel's home shows: the figures a sales team lives by. Weeks start on Monday, in Mérida's time. */
export interface Metrics {
  /** When these figures were computed (never kept; requests at the same moment share a computation). */
  computedAt: string;
  /** The last 12 weeks, oldest first, this week last. */
  leadsPerWeek: { week: string; counts: Record<LeadForm, number> }[];
  /** Median hours from a contact's first lead to its first move out of `nuevo`: this week and the 4 before. */
  responseTime: { week: string; medianHours: number | null; contacts: number }[];
  /** Of the contacts whose first lead came 1 to 28 days ago, the share moved out of `nuevo` within 24 hours. */
  contactedWithin24h: { share: number | null; contacts: number };
  /** Leads of the last 12 weeks by campaign (first 10) and by form. */
  byCampaign: { campaign: string | null; leads: number }[];
  byForm: Record<LeadForm, number>;
  /** Contacts still `nuevo` 24 hours after their first lead, and open contacts whose next contact is due. */
  unattended: number;
  overdue: number;
  /** The visits and consultations of the same 12 weeks (issue #40, decision 0062): the team's, by adviser, by source. */
  visits: {
    totals: VisitFigures;
    byAdviser: ({ memberId: string | null; name: string } & VisitFigures)[];
    bySource: ({ source: AppointmentSource } & VisitFigures)[];
  };
  /**
   * The consultations paid online over the same 12 weeks (issue #41): by the
   * payments' status, the money kept, and how many of the people who paid
   * have closed a house since (the conversion from paid consultation to won deal).
   */
  payments: {
    paid: number;
    pending: number;
    expired: number;
    refunded: number;
    paidMxn: number;
    paidContacts: number;
    won: number;
    conversion: number | null;
  };
}

/** Where an appointment was booked: the site, the panel, WhatsApp, a call with the voice agent. */
export const APPOINTMENT_SOURCES = ['sitio', 'panel', 'whatsapp', 'voz'] as const;
export type AppointmentSource = (typeof APPOINTMENT_SOURCES)[number];
export const APPOINTMENT_SOURCE_LABELS: Record<AppointmentSource, string> = {
  sitio: 'Sitio',
  panel: 'Panel',
  whatsapp: 'WhatsApp',
  voz: 'Agente de voz',
};

/**
 * A set of appointments counted (decision 0062): `booked` those booked in the
 * period (whatever became of them); `held` and `noShows` those whose start
 * fell in it, as the adviser marked them; `pending` those past and still
 * unmarked; `noShowRate` = noShows / (held + noShows), null with none marked.
 */
export interface VisitFigures {
  booked: number;
  held: number;
  noShows: number;
  pending: number;
  noShowRate: number | null;
}

/** A one-tap WhatsApp link with a Spanish greeting by first name (when the name is a real name, decision 0049). */
export function whatsappLink(phone: string, name: string, brand: string): string {
  const first = greetingName(name);
  const text = `¡Hola${first ? ` ${first}` : ''}! Te escribe tu asesor de ${brand}. Recibimos tu solicitud y con gusto te ayudamos.`;
  return `https://wa.me/${phone.replace(/\D/g, '')}?text=${encodeURIComponent(text)}`;
}

/** "1 llamada", "3 llamadas". */
export const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
