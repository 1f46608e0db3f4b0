import type {
  BUDGETS,
  FINISHES,
  INVESTMENT_RANGES,
  LAND_OPTIONS,
  LAND_SIZES,
  OBJECTIVES,
  PARTNER_ROLES,
  PARTNER_TIMELINES,
  PREFILTER_TIMELINES,
  PROJECT_TYPES,
  YES_NO,
} from './options.ts';

/** What visitors (and later the administrator) read for each option value. */
type Labels<T extends readonly (string | number)[]> = Record<T[number], string>;

export const LAND_OPTION_LABELS: Labels<typeof LAND_OPTIONS> = {
  'tengo-terreno': 'Ya tengo terreno',
  'necesito-terreno-y-casa': 'Necesito terreno y casa',
};

export const PREFILTER_TIMELINE_LABELS: Labels<typeof PREFILTER_TIMELINES> = {
  '0-60-dias': 'En los próximos 60 días',
  '2-4-meses': 'En 2 a 4 meses',
  'mas-4-meses': 'En más de 4 meses',
};

export const OBJECTIVE_LABELS: Labels<typeof OBJECTIVES> = {
  'vivienda-propia': 'Vivienda propia',
  'renta-corta': 'Renta corta (vacacional)',
  'renta-larga': 'Renta larga',
  mixto: 'Uso mixto',
};

export const PARTNER_ROLE_LABELS: Labels<typeof PARTNER_ROLES> = {
  desarrollador: 'Desarrollador',
  inversionista: 'Inversionista',
  propietario: 'Propietario de terreno',
  otro: 'Otro',
};

export const PROJECT_TYPE_LABELS: Labels<typeof PROJECT_TYPES> = {
  residencial: 'Residencial',
  turistico: 'Turístico',
  comercial: 'Comercial',
  mixto: 'Mixto',
};

export const LAND_SIZE_LABELS: Labels<typeof LAND_SIZES> = {
  '500-1000': '500 a 1,000 m²',
  '1000-5000': '1,000 a 5,000 m²',
  '5000+': 'Más de 5,000 m²',
};

export const INVESTMENT_LABELS: Labels<typeof INVESTMENT_RANGES> = {
  'menor-500k': 'Menos de $500 mil',
  '500k-1m': '$500 mil a $1 millón',
  '1-2m': '$1 a $2 millones',
  '2-5m': '$2 a $5 millones',
  '5m+': 'Más de $5 millones',
};

export const PARTNER_TIMELINE_LABELS: Labels<typeof PARTNER_TIMELINES> = {
  '0-3-meses': 'En los próximos 3 meses',
  '3-6-meses': 'En 3 a 6 meses',
  '6-12-meses': 'En 6 a 12 meses',
  'mas-12-meses': 'En más de 12 meses',
};

export const YES_NO_LABELS: Labels<typeof YES_NO> = { si: 'Sí', no: 'No' };

export const FINISH_LABELS: Labels<typeof FINISHES> = {
  basico: 'Básico',
  medio: 'Medio',
  premium: 'Premium',
};

export const BUDGET_LABELS: Labels<typeof BUDGETS> = {
  'Aún no lo sé': 'Aún no lo sé',
  '300k-500k': '$300 mil a $500 mil',
  '500k-800k': '$500 mil a $800 mil',
  '800k-1.2M': '$800 mil a $1.2 millones',
  '1.2M+': 'Más de $1.2 millones',
};

/** [{ value, label }] in the order of the option set. */
export function optionsOf<T extends string>(values: readonly T[], labels: Record<T, string>) {
  return values.map((value) => ({ value, label: labels[value] }));
}

export const SOURCE_LABELS: Record<string, string> = { prefiltro: 'Prefiltro', estimacion: 'Estimación' };

export const ORIGIN_LABELS: Record<string, string> = {
  hero: 'Portada',
  paths: 'Tarjeta «Más popular»',
  unknown: 'Sin origen',
};

/** has_land holds the pre-filter's land option or the estimate's si/no. */
export const HAS_LAND_LABELS: Record<string, string> = { ...LAND_OPTION_LABELS, ...YES_NO_LABELS };

export const STATUS_LABELS: Record<string, string> = { approved: 'Aprobado', rejected: 'Rechazado' };

export const OBJECTIVE_AND_FIXED_LABELS: Record<string, string> = { ...OBJECTIVE_LABELS, cotizacion: 'Cotización' };
