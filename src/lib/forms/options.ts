/**
 * Option sets of the lead forms (docs/product.md §10). These values are
 * the contract between the forms, the functions and the database CHECK
 * constraints: change all three together.
 */

export const QUICK_QUOTE_ORIGINS = ['hero', 'paths', 'unknown'] as const;

export const LAND_OPTIONS = ['tengo-terreno', 'necesito-terreno-y-casa'] as const;

export const PREFILTER_TIMELINES = ['0-60-dias', '2-4-meses', 'mas-4-meses'] as const;

export const OBJECTIVES = ['vivienda-propia', 'renta-corta', 'renta-larga', 'mixto'] as const;

export const PARTNER_ROLES = ['desarrollador', 'inversionista', 'propietario', 'otro'] as const;

export const PROJECT_TYPES = ['residencial', 'turistico', 'comercial', 'mixto'] as const;

export const LAND_SIZES = ['500-1000', '1000-5000', '5000+'] as const;

export const INVESTMENT_RANGES = ['500k-1m', '1-2m', '2-5m', '5m+', 'menor-500k'] as const;

export const PARTNER_TIMELINES = ['0-3-meses', '3-6-meses', '6-12-meses', 'mas-12-meses'] as const;

export const YES_NO = ['si', 'no'] as const;

export const ESTIMATE_LEVELS = [1, 2] as const;

export const FINISHES = ['basico', 'medio', 'premium'] as const;

export const BUDGET_UNKNOWN = 'Aún no lo sé';
export const BUDGETS = [BUDGET_UNKNOWN, '300k-500k', '500k-800k', '800k-1.2M', '1.2M+'] as const;

/** The 31 Mexican states; Ciudad de México is not one of them (docs/product.md §10.1). */
export const MEXICAN_STATES = [
  'Aguascalientes',
  'Baja California',
  'Baja California Sur',
  'Campeche',
  'Chiapas',
  'Chihuahua',
  'Coahuila',
  'Colima',
  'Durango',
  'Guanajuato',
  'Guerrero',
  'Hidalgo',
  'Jalisco',
  'México',
  'Michoacán',
  'Morelos',
  'Nayarit',
  'Nuevo León',
  'Oaxaca',
  'Puebla',
  'Querétaro',
  'Quintana Roo',
  'San Luis Potosí',
  'Sinaloa',
  'Sonora',
  'Tabasco',
  'Tamaulipas',
  'Tlaxcala',
  'Veracruz',
  'Yucatán',
  'Zacatecas',
] as const;

/** Partners may also build in the capital, so their state list adds it. */
export const PARTNER_STATES = [...MEXICAN_STATES, 'Ciudad de México'] as const;

/** Fixed values the estimate form stores (docs/product.md §11.2). */
export const ESTIMATE_FIXED = {
  state: 'Yucatán',
  municipality: 'Mérida',
  timeline: '1-3 meses',
  objective: 'cotizacion',
} as const;
