import * as z from 'zod/mini';
import { defineForm, nameQuestion, phoneQuestion, SUBMITTING } from './definition.ts';
import { LIMITS, leadSchema, nameField, optionalChoice, phoneField, requiredChoice, requiredText } from './fields.ts';
import { LAND_OPTION_LABELS, OBJECTIVE_LABELS, optionsOf, PREFILTER_TIMELINE_LABELS } from './labels.ts';
import { LAND_OPTIONS, MEXICAN_STATES, OBJECTIVES, PREFILTER_TIMELINES } from './options.ts';

/** /prefiltro, "Primer paso hacia tu casa" (docs/product.md). */
export const preFilterSchema = leadSchema({
  source: z.literal('prefiltro'),
  name: nameField,
  phone: phoneField,
  state: optionalChoice(MEXICAN_STATES),
  municipality: requiredText('Escribe tu municipio.', LIMITS.municipality),
  land_option: requiredChoice(LAND_OPTIONS, 'Dinos si ya tienes terreno.'),
  timeline: optionalChoice(PREFILTER_TIMELINES),
  objective: optionalChoice(OBJECTIVES),
});

const MISSING = 'Por favor completa todos los campos requeridos.';
const FAILURE = 'No se pudo guardar tu información. Inténtalo de nuevo.';

export const preFilterForm = defineForm({
  label: 'Primer paso hacia tu casa',
  eyebrow: 'Compradores',
  endpoint: '/api/quote-requests',
  schema: preFilterSchema,
  sections: [
    {
      columns: 2,
      questions: [
        nameQuestion('Nombre de contacto'),
        phoneQuestion('Teléfono (WhatsApp)'),
        {
          kind: 'select',
          name: 'state',
          label: 'Estado',
          options: MEXICAN_STATES.map((state) => ({ value: state, label: state })),
          placeholder: 'Elige tu estado',
        },
        { kind: 'text', name: 'municipality', label: 'Municipio', autoComplete: 'address-level2' },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'land_option',
          label: '¿Cuentas con terreno?',
          options: optionsOf(LAND_OPTIONS, LAND_OPTION_LABELS),
          columns: 2,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'timeline',
          label: '¿Cuándo te gustaría iniciar?',
          options: optionsOf(PREFILTER_TIMELINES, PREFILTER_TIMELINE_LABELS),
          columns: 3,
        },
      ],
    },
    {
      questions: [
        {
          kind: 'choice',
          name: 'objective',
          label: '¿Cuál es el objetivo de tu proyecto?',
          options: optionsOf(OBJECTIVES, OBJECTIVE_LABELS),
          columns: 2,
        },
      ],
    },
  ],
  submit: { label: 'Descubre si es tu momento', busyLabel: SUBMITTING },
  toasts: {
    missing: { title: 'Información incompleta', description: MISSING, variant: 'destructive' },
    failure: { title: 'Error', description: FAILURE },
  },
  // The endpoint, shared with the estimate, answers a request with `source: prefiltro` in these words.
  messages: { invalid: MISSING, failure: FAILURE },
});
