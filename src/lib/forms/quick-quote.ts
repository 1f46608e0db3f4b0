import * as z from 'zod/mini';
import { defineForm, emailQuestion, nameQuestion, phoneQuestion, SUBMITTING } from './definition.ts';
import { leadSchema, nameField, optionalChoice, optionalEmailField, phoneField } from './fields.ts';
import { QUICK_QUOTE_ORIGINS } from './options.ts';

/** The quick-quote dialog ("Obtén tu estimación rápida"), docs/product.md. */
export const quickQuoteSchema = leadSchema({
  name: nameField,
  phone: phoneField,
  email: optionalEmailField,
  // Not an input: empty, null and absent alike are `unknown` (docs/product.md §4, §10.13).
  origin: z.pipe(
    optionalChoice(QUICK_QUOTE_ORIGINS),
    z.transform((value) => value ?? 'unknown'),
  ),
});

export type QuickQuote = z.output<typeof quickQuoteSchema>;

const MISSING = 'Por favor completa tu nombre y WhatsApp';
const FAILURE = 'Hubo un problema al enviar tu información. Por favor intenta de nuevo.';

export const quickQuoteForm = defineForm({
  label: 'Estimación rápida',
  endpoint: '/api/quick-quotes',
  schema: quickQuoteSchema,
  sections: [
    {
      questions: [
        nameQuestion(),
        phoneQuestion('WhatsApp', '10 dígitos; te escribimos por WhatsApp.'),
        emailQuestion(),
      ],
    },
  ],
  submit: { label: 'Ver modelos y precios', busyLabel: SUBMITTING },
  toasts: {
    missing: { title: 'Campos requeridos', description: MISSING },
    failure: { title: 'Error', description: FAILURE },
    success: {
      title: '¡Gracias por tu interés!',
      description: 'Te mostramos modelos y rangos de precio. Un asesor te contactará pronto.',
    },
  },
  messages: { invalid: `${MISSING}.`, failure: FAILURE },
});
