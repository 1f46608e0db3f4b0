import * as z from 'zod/mini';
import { defineForm, emailQuestion, nameQuestion, phoneQuestion, SUBMITTING } from './definition.ts';
import { leadSchema, nameField, optionalChoice, optionalEmailField, phoneField } from './fields.ts';
import { BUDGET_LABELS, FINISH_LABELS, optionsOf } from './labels.ts';
import { BUDGET_UNKNOWN, BUDGETS, FINISHES } from './options.ts';

const MAX_TERRAIN_M2 = 1_000_000;
const TERRAIN_MESSAGE = `Escribe los metros cuadrados con números, de 1 a ${MAX_TERRAIN_M2.toLocaleString('es-MX')}.`;

/** Terrain size in m²: optional; a number or the digits typed in the field (7 digits and 2 decimals at most). */
const terrainSizeField = z.pipe(
  // Absent, null and "" all mean "not given" (an optional key, not a required one that may be undefined).
  z.nullish(
    z.union(
      [
        z.number(),
        z
          .string()
          .check(z.trim(), z.maxLength(10, TERRAIN_MESSAGE), z.regex(/^(\d{1,7}(\.\d{1,2})?)?$/, TERRAIN_MESSAGE)),
      ],
      { error: TERRAIN_MESSAGE },
    ),
  ),
  z.transform((value: number | string | null | undefined, context) => {
    if (value === null || value === undefined || value === '') return null;
    const size = Number(value);
    if (Number.isFinite(size) && size > 0 && size <= MAX_TERRAIN_M2) return size;
    context.issues.push({ code: 'custom', message: TERRAIN_MESSAGE, input: value });
    return z.NEVER;
  }),
);

/** Levels: 1 or 2, as a number or as the radio's string; 1 when absent. */
const levelsField = z.pipe(
  z.optional(z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], { error: 'Elige 1 o 2 niveles.' })),
  z.transform((value: 1 | 2 | '1' | '2' | undefined) => (value === undefined ? 1 : Number(value)) as 1 | 2),
);

/** /estimacion, the personalised estimate (docs/product.md). */
export const estimateSchema = leadSchema({
  source: z.literal('estimacion'),
  name: nameField,
  phone: phoneField,
  email: optionalEmailField,
  terrain_size: terrainSizeField,
  levels: levelsField,
  finishes: z._default(z.enum(FINISHES, { error: 'Elige un tipo de acabados de la lista.' }), 'basico'),
  budget: z.pipe(
    optionalChoice(BUDGETS),
    z.transform((value: (typeof BUDGETS)[number] | null) => value ?? BUDGET_UNKNOWN),
  ),
});

const FAILURE = 'Hubo un problema al enviar tu solicitud. Por favor intenta de nuevo.';

export const estimateForm = defineForm({
  label: 'Estimación personalizada',
  eyebrow: 'Estimación personalizada',
  endpoint: '/api/quote-requests',
  schema: estimateSchema,
  sections: [
    {
      columns: 2,
      questions: [
        nameQuestion(),
        phoneQuestion(),
        emailQuestion(),
        {
          kind: 'text',
          name: 'terrain_size',
          label: 'Tamaño del terreno (m²)',
          inputMode: 'decimal',
          placeholder: 'Por ejemplo, 250',
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'levels',
          label: 'Niveles',
          options: [
            { value: '1', label: '1 nivel' },
            { value: '2', label: '2 niveles' },
          ],
          defaultValue: '1',
          columns: 2,
          compact: true,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'finishes',
          label: 'Acabados',
          options: optionsOf(FINISHES, FINISH_LABELS),
          defaultValue: 'basico',
          columns: 3,
          compact: true,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'select',
          name: 'budget',
          label: 'Presupuesto aproximado',
          options: optionsOf(BUDGETS, BUDGET_LABELS),
          defaultValue: BUDGET_UNKNOWN,
        },
      ],
    },
  ],
  submit: { label: 'Calcular mi estimación', busyLabel: SUBMITTING },
  toasts: {
    missing: { title: 'Error', description: 'Por favor completa todos los campos requeridos', variant: 'destructive' },
    failure: { title: 'Error', description: FAILURE },
    success: { title: '¡Solicitud enviada!', description: 'Un asesor te contactará en las próximas 24 horas' },
  },
  messages: { invalid: 'Por favor completa todos los campos requeridos.', failure: FAILURE },
});
