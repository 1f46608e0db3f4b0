/**
 * What the administrator sees of each kind of lead: the table's columns and
 * the CSV's, in Spanish, with option values turned into words. Shared by the
 * admin panel (browser) and the CSV export (server), so both say the same;
 * each kind's list is named by its entry in the registry (kinds.ts).
 */

import { ATTRIBUTION_LABELS, type AttributionKey } from '../admin/attribution.ts';
import {
  BUDGET_LABELS,
  FINISH_LABELS,
  HAS_LAND_LABELS,
  INVESTMENT_LABELS,
  LAND_SIZE_LABELS,
  OBJECTIVE_AND_FIXED_LABELS,
  ORIGIN_LABELS,
  PARTNER_ROLE_LABELS,
  PARTNER_TIMELINE_LABELS,
  PREFILTER_TIMELINE_LABELS,
  PROJECT_TYPE_LABELS,
  SOURCE_LABELS,
  STATUS_LABELS,
  YES_NO_LABELS,
} from '../forms/labels.ts';
import { PARTNER_APPROVAL_THRESHOLD, PARTNER_SCORE_MAX } from '../forms/partner-application.ts';
import { formatPhone } from '../forms/phone.ts';

export type LeadRow = Record<string, string | number | boolean | null> & { id: string; created_at: string };

export interface Column {
  /** The CSV's header (the marketing team's names: utm_source). */
  header: string;
  /** The CSV's value (phones in E.164, sortable dates). */
  value(row: LeadRow): string;
  /** Shown in the table; every column goes to the CSV. */
  inTable: boolean;
  /** What a person reads in the panel, when it differs from the CSV's: "Fuente", "999 100 0000". */
  label?: string;
  shown?(row: LeadRow): string;
}

/** A column's name and value as the panel shows them (the CSV keeps `header` and `value`). */
export const columnLabel = (column: Column): string => column.label ?? column.header;
export const shownValue = (column: Column, row: LeadRow): string => (column.shown ?? column.value)(row);

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
const labelled =
  (labels: Record<string, string>) =>
  (value: unknown): string =>
    value === null || value === undefined ? '' : (labels[String(value)] ?? String(value));

/** Partner score as a percentage of the highest reachable score, clamped to 0-100 (docs/product.md §9). */
export function scorePercent(score: number): number {
  if (score < 0) return 0;
  if (score > PARTNER_SCORE_MAX) return 100;
  return Math.round((score / PARTNER_SCORE_MAX) * 100);
}

/** A score that reaches the approval threshold (approval also needs both "si" answers). */
export function isStrongScore(score: number): boolean {
  return score >= PARTNER_APPROVAL_THRESHOLD;
}

const column = (header: string, value: (row: LeadRow) => string, inTable = true): Column => ({
  header,
  value,
  inTable,
});
const field = (header: string, key: string, format = text, inTable = true) =>
  column(header, (row) => format(row[key]), inTable);
/** A stored phone: E.164 in the CSV, the national way in the panel. */
const phoneField = (): Column => ({ ...field('Teléfono', 'phone'), shown: (row) => formatPhone(text(row.phone)) });
/** A UTM parameter: its name in the CSV, its label (lib/admin/attribution.ts) in the panel. */
const utmField = (key: AttributionKey): Column => ({ ...field(key, key, text, false), label: ATTRIBUTION_LABELS[key] });

const ATTRIBUTION: Column[] = [
  column('Campaña', (row) => [row.utm_source, row.utm_medium, row.utm_campaign].filter(Boolean).join(' / ')),
  utmField('utm_source'),
  utmField('utm_medium'),
  utmField('utm_campaign'),
  utmField('utm_term'),
  utmField('utm_content'),
  field('Referencia', 'referrer', text, false),
  field('Página de llegada', 'landing_path'),
];

/** What the person agreed to when sending (issue #14): rows stored before have neither. */
const CONSENT: Column[] = [
  column(
    'Acepta promociones',
    (row) => (row.marketing_consent === true ? 'Sí' : row.marketing_consent === false ? 'No' : ''),
    false,
  ),
  // When the person accepted (the panel's one date format; the CSV's sortable one), and which notice.
  {
    ...column(
      'Aviso de privacidad aceptado',
      (row) => (row.privacy_accepted_at ? formatCsvDate(String(row.privacy_accepted_at)) : ''),
      false,
    ),
    shown: (row) => (row.privacy_accepted_at ? formatShortDate(String(row.privacy_accepted_at)) : ''),
  },
  {
    ...field('Versión del aviso de privacidad', 'privacy_version', text, false),
    shown: (row) => (row.privacy_version ? formatShortDate(String(row.privacy_version)) : ''),
  },
];

export const QUOTE_REQUEST_COLUMNS: Column[] = [
  field('Formulario', 'source', labelled(SOURCE_LABELS)),
  field('Nombre', 'name'),
  phoneField(),
  field('Correo', 'email'),
  field('Estado', 'state'),
  field('Municipio', 'municipality'),
  field('Terreno propio', 'has_land', labelled(HAS_LAND_LABELS)),
  column('Presupuesto', (row) => labelled({ ...BUDGET_LABELS, ...INVESTMENT_LABELS })(row.investment ?? row.budget)),
  column('Plazo', (row) => labelled(PREFILTER_TIMELINE_LABELS)(row.need_land_help ?? row.timeline)),
  column('Objetivo', (row) => labelled(OBJECTIVE_AND_FIXED_LABELS)(row.house_size ?? row.objective)),
  field('Terreno (m²)', 'terrain_size'),
  field('Niveles', 'levels'),
  field('Acabados', 'finishes', labelled(FINISH_LABELS)),
  ...ATTRIBUTION,
  ...CONSENT,
];

export const PARTNER_APPLICATION_COLUMNS: Column[] = [
  field('Nombre', 'name'),
  phoneField(),
  field('Rol', 'role', labelled(PARTNER_ROLE_LABELS)),
  field('Tipo de proyecto', 'project_type', labelled(PROJECT_TYPE_LABELS)),
  field('Estado', 'state'),
  field('Municipio', 'municipality'),
  field('Superficie', 'land_size', labelled(LAND_SIZE_LABELS)),
  field('Inversión', 'investment', labelled(INVESTMENT_LABELS)),
  field('Plazo', 'timeline', labelled(PARTNER_TIMELINE_LABELS)),
  field('Documentación legal', 'legal_documentation', labelled(YES_NO_LABELS)),
  field('Paga consultoría', 'consultancy_payment', labelled(YES_NO_LABELS)),
  column('Puntaje', (row) => `${scorePercent(Number(row.score))}%`),
  field('Puntos', 'score', text, false),
  field('Estatus', 'status', labelled(STATUS_LABELS)),
  ...ATTRIBUTION,
  ...CONSENT,
];

export const QUICK_QUOTE_COLUMNS: Column[] = [
  field('Nombre', 'name'),
  phoneField(),
  field('Correo', 'email'),
  field('Origen', 'origin', labelled(ORIGIN_LABELS)),
  ...ATTRIBUTION,
  ...CONSENT,
];

const MERIDA = 'America/Merida';
// Built once: a formatter per row costs time and native memory that the GC sees late.
const SHORT_DATE = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: MERIDA,
});
const DAY = new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const CSV_DATE = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'short', timeStyle: 'short', timeZone: MERIDA });

/**
 * "24 nov 2026, 5:31 p. m." in Mérida's time: the one way the panel writes a
 * moment (issue #26); a calendar day alone ("2026-11-25") as "25 nov 2026".
 */
export function formatShortDate(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) ? DAY.format(new Date(`${iso}T00:00:00Z`)) : SHORT_DATE.format(new Date(iso));
}

/** "2026-11-21 09:15" in Mérida's time: sortable, for the CSV. */
export function formatCsvDate(iso: string): string {
  return CSV_DATE.format(new Date(iso));
}
