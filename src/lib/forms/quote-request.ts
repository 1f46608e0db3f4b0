import { z } from 'zod';
import {
  attributionShape,
  consentShape,
  LIMITS,
  nameField,
  optionalChoice,
  optionalEmailField,
  phoneField,
  requiredChoice,
  requiredText,
} from './fields.ts';
import {
  BUDGET_UNKNOWN,
  BUDGETS,
  FINISHES,
  LAND_OPTIONS,
  MEXICAN_STATES,
  OBJECTIVES,
  PREFILTER_TIMELINES,
} from './options.ts';

/** /prefiltro, "Primer paso hacia tu casa". */
export const preFilterSchema = z.object({
  source: z.literal('prefiltro'),
  name: nameField,
  phone: phoneField,
  state: optionalChoice(MEXICAN_STATES),
  municipality: requiredText('Escribe tu municipio.', LIMITS.municipality),
  land_option: requiredChoice(LAND_OPTIONS, 'Dinos si ya tienes terreno.'),
  timeline: optionalChoice(PREFILTER_TIMELINES),
  objective: optionalChoice(OBJECTIVES),
  ...attributionShape,
  ...consentShape,
});

const MAX_TERRAIN_M2 = 1_000_000;
const TERRAIN_MESSAGE = `Escribe los metros cuadrados con números, de 1 a ${MAX_TERRAIN_M2.toLocaleString('es-MX')}.`;

/** Terrain size in m²: optional; a number or the digits typed in the field. */
const terrainSizeField = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^(\d{1,7}(\.\d{1,2})?)?$/, TERRAIN_MESSAGE),
    ],
    { error: TERRAIN_MESSAGE },
  )
  // Absent, null and "" all mean "not given" (an optional key, not a required one that may be undefined).
  .nullish()
  .transform((value, context) => {
    if (value === null || value === undefined || value === '') return null;
    const size = Number(value);
    if (Number.isFinite(size) && size > 0 && size <= MAX_TERRAIN_M2) return size;
    context.addIssue({ code: 'custom', message: TERRAIN_MESSAGE });
    return z.NEVER;
  });

/** Levels: 1 or 2, as a number or as the select's string; 1 when absent. */
const levelsField = z
  .union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], { error: 'Elige 1 o 2 niveles.' })
  .optional()
  .transform((value) => (value === undefined ? 1 : Number(value)) as 1 | 2);

/** /estimacion, the personalised estimate. */
export const estimateSchema = z.object({
  source: z.literal('estimacion'),
  name: nameField,
  phone: phoneField,
  email: optionalEmailField,
  terrain_size: terrainSizeField,
  levels: levelsField,
  finishes: z.enum(FINISHES, { error: 'Elige un tipo de acabados de la lista.' }).default('basico'),
  budget: optionalChoice(BUDGETS).transform((value) => value ?? BUDGET_UNKNOWN),
  ...attributionShape,
  ...consentShape,
});

/** Both forms post to one endpoint; `source` tells them apart. */
export const quoteRequestSchema = z.discriminatedUnion('source', [preFilterSchema, estimateSchema], {
  error: 'Tipo de solicitud no válido.',
});

export type QuoteRequest = z.output<typeof quoteRequestSchema>;
