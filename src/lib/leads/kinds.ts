/**
 * The registry of lead kinds (issue #24): one entry per table of leads, with
 * everything the site, the panel and the server derive from it. Browser-safe
 * (no server import): the panel's tabs read it as the functions do.
 *
 * Adding a kind: its form definition (src/lib/forms), its migration (db/),
 * and one entry here (docs/nueva-forma.md walks through it).
 */
import type { ContactKind, LeadForm } from '../admin/contacts.ts';

export interface LeadKindTexts {
  /** The panel's tab. */
  label: string;
  /** The tab with no row. */
  empty: string;
  loadError: string;
  deleted: string;
  deleteError: string;
}

export interface LeadKindDefinition {
  /** The kind's name in URLs (`/api/admin/{kind}`) and in the API. */
  kind: string;
  /** The table its rows live in. */
  table: string;
  /** What a person becomes in contacts by sending it. */
  contactKind: ContactKind;
  /** The forms (sources) whose leads the table keeps. */
  forms: readonly LeadForm[];
  texts: LeadKindTexts;
  /** The CSV export's file name. */
  csvFile: string;
}

export const LEAD_KIND_REGISTRY = [
  {
    kind: 'quote-requests',
    table: 'quote_requests',
    contactKind: 'comprador',
    forms: ['prefiltro', 'estimacion'],
    texts: {
      label: 'Cotizaciones de Casas',
      empty: 'No hay solicitudes de cotización',
      loadError: 'Error al cargar las cotizaciones',
      deleted: 'Cotización eliminada',
      deleteError: 'No se pudo eliminar la cotización',
    },
    csvFile: 'cotizaciones_casas.csv',
  },
  {
    kind: 'partner-applications',
    table: 'partner_applications',
    contactKind: 'socio',
    forms: ['socios'],
    texts: {
      label: 'Solicitudes de Socios',
      empty: 'No hay solicitudes de socios',
      loadError: 'Error al cargar las solicitudes de socios',
      deleted: 'Solicitud eliminada',
      deleteError: 'No se pudo eliminar la solicitud de socio',
    },
    csvFile: 'solicitudes_socios.csv',
  },
  {
    kind: 'quick-quotes',
    table: 'cotizaciones_rapidas',
    contactKind: 'comprador',
    forms: ['cotizacion_rapida'],
    texts: {
      label: 'Cotizaciones rápidas',
      empty: 'No hay cotizaciones rápidas',
      loadError: 'Error al cargar las cotizaciones rápidas',
      deleted: 'Cotización eliminada',
      deleteError: 'No se pudo eliminar la cotización',
    },
    csvFile: 'cotizaciones_rapidas.csv',
  },
] as const satisfies readonly LeadKindDefinition[];

export type RegisteredLeadKind = (typeof LEAD_KIND_REGISTRY)[number]['kind'];

/** The registry's entry for `kind`. */
export function leadKindDefinition(kind: RegisteredLeadKind): LeadKindDefinition {
  const found = LEAD_KIND_REGISTRY.find((entry) => entry.kind === kind);
  if (!found) throw new Error(`unknown lead kind ${kind}`);
  return found;
}
