/**
 * The registry of lead kinds (issue #24): one entry per table of leads, with
 * everything the site, the panel and the server derive from it: the panel's
 * tabs, lists, exports and filters, the contacts' requests, the metrics, the
 * ARCO export, the daily summary and the notifications. Browser-safe (no
 * server import): the panel reads it as the functions do; the SQL made from
 * it is in src/server/leads/kinds.ts.
 *
 * Adding a kind: its form definition (src/lib/forms), its migration (db/),
 * and one entry here (docs/nueva-forma.md walks through it).
 */
import {
  type Column,
  type LeadRow,
  PARTNER_APPLICATION_COLUMNS,
  QUICK_QUOTE_COLUMNS,
  QUOTE_REQUEST_COLUMNS,
} from './columns.ts';

export const CONTACT_KINDS = ['comprador', 'socio'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

export interface LeadKindTexts {
  /** The panel's tab. */
  label: string;
  /** The tab with no row. */
  empty: string;
  loadError: string;
  deleted: string;
  deleteError: string;
}

/** One form whose leads a kind's table keeps. */
export interface LeadFormEntry {
  /** Its name in the API (`?form=`), the metrics and the stored `formColumn`. */
  form: string;
  /** Its place among every kind's forms (filters, charts, metrics), lowest first. */
  order: number;
  /** Its name in the panel's filters and charts. */
  label: string;
  /** One of its leads in the daily summary. */
  title: string;
  /** The heading of its notification. */
  notice: string;
}

export interface LeadKindDefinition {
  /** The kind's name in URLs (`/api/admin/{kind}`) and in the API. */
  kind: string;
  /** The table its rows live in. */
  table: string;
  /** The public endpoint its forms post to (their definitions' `endpoint`, a function's `config.path`). */
  endpoint: string;
  /** What a person becomes in contacts by sending it. */
  contactKind: ContactKind;
  /** The forms (sources) whose leads the table keeps; a lead with no `formColumn` is of the first. */
  forms: readonly LeadFormEntry[];
  /** With several forms, the column that names each row's form. */
  formColumn?: string;
  /** Its table's columns in the panel and its CSV's, in order. */
  columns: Column[];
  texts: LeadKindTexts;
  /** The CSV export's file name. */
  csvFile: string;
}

/** In the order of the panel's tabs. */
export const LEAD_KIND_REGISTRY = [
  {
    kind: 'quote-requests',
    table: 'quote_requests',
    endpoint: '/api/quote-requests',
    contactKind: 'comprador',
    forms: [
      { form: 'prefiltro', order: 2, label: 'Prefiltro', title: 'Prefiltro', notice: 'Nuevo prefiltro' },
      { form: 'estimacion', order: 3, label: 'Estimación', title: 'Estimación', notice: 'Nueva estimación' },
    ],
    formColumn: 'source',
    columns: QUOTE_REQUEST_COLUMNS,
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
    endpoint: '/api/partner-applications',
    contactKind: 'socio',
    forms: [
      { form: 'socios', order: 4, label: 'Socios', title: 'Evaluación de socio', notice: 'Nueva evaluación de socio' },
    ],
    columns: PARTNER_APPLICATION_COLUMNS,
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
    endpoint: '/api/quick-quotes',
    contactKind: 'comprador',
    forms: [
      {
        form: 'cotizacion_rapida',
        order: 1,
        label: 'Cotización rápida',
        title: 'Cotización rápida',
        notice: 'Nueva cotización rápida',
      },
    ],
    columns: QUICK_QUOTE_COLUMNS,
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

type Registered = (typeof LEAD_KIND_REGISTRY)[number];
export type RegisteredLeadKind = Registered['kind'];
export type LeadKind = RegisteredLeadKind;
export type LeadTable = Registered['table'];
export type LeadForm = Registered['forms'][number]['form'];

/** The kinds, in the order of the panel's tabs. */
export const LEAD_KINDS: readonly LeadKind[] = LEAD_KIND_REGISTRY.map((entry) => entry.kind);

export function isLeadKind(value: string | undefined): value is LeadKind {
  return LEAD_KINDS.includes(value as LeadKind);
}

/** The registry's entry for `kind`. */
export function leadKindDefinition(kind: LeadKind): LeadKindDefinition {
  const found = LEAD_KIND_REGISTRY.find((entry) => entry.kind === kind);
  if (!found) throw new Error(`unknown lead kind ${kind}`);
  return found;
}

const byKind = <T>(value: (entry: LeadKindDefinition) => T) =>
  Object.fromEntries(LEAD_KIND_REGISTRY.map((entry) => [entry.kind, value(entry)])) as Record<LeadKind, T>;

/** Each kind's columns (the panel's table and the CSV). */
export const COLUMNS: Record<LeadKind, Column[]> = byKind((entry) => entry.columns);
export const CSV_FILE_NAMES: Record<LeadKind, string> = byKind((entry) => entry.csvFile);

const FORM_ENTRIES = LEAD_KIND_REGISTRY.flatMap((entry) => entry.forms as readonly LeadFormEntry[]).sort(
  (a, b) => a.order - b.order,
);

/** Every form a lead can come from, in their order. */
export const LEAD_FORMS = FORM_ENTRIES.map((entry) => entry.form as LeadForm) as readonly LeadForm[] as readonly [
  LeadForm,
  ...LeadForm[],
];

const byForm = (value: (entry: LeadFormEntry) => string) =>
  Object.fromEntries(FORM_ENTRIES.map((entry) => [entry.form, value(entry)])) as Record<LeadForm, string>;

export const FORM_LABELS: Record<LeadForm, string> = byForm((entry) => entry.label);
/** One lead of each form in the daily summary. */
export const FORM_TITLES: Record<LeadForm, string> = byForm((entry) => entry.title);
/** The heading of each form's notification. */
export const FORM_NOTICES: Record<LeadForm, string> = byForm((entry) => entry.notice);

const firstForm = (entry: LeadKindDefinition) => Math.min(...entry.forms.map((form) => form.order));

/**
 * The kinds in the order of their forms: how lists of every kind's rows run
 * (a contact's requests, the ARCO export, the SQL over every table).
 */
export const LEAD_KINDS_BY_FORM: readonly LeadKindDefinition[] = [...LEAD_KIND_REGISTRY].sort(
  (a, b) => firstForm(a) - firstForm(b),
);

/** Which form a stored lead came from. */
export function leadForm(kind: LeadKind, row: LeadRow): LeadForm {
  const { forms, formColumn } = leadKindDefinition(kind);
  const named = formColumn ? forms.find((entry) => entry.form === row[formColumn]) : undefined;
  return (named ?? (forms[0] as LeadFormEntry)).form as LeadForm;
}
