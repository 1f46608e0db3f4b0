import { z } from 'zod';
import { attributionShape, consentShape, nameField, optionalEmailField, phoneField } from './fields.ts';
import { QUICK_QUOTE_ORIGINS } from './options.ts';

/** The quick-quote dialog ("Obtén tu estimación rápida"). */
export const quickQuoteSchema = z.object({
  name: nameField,
  phone: phoneField,
  email: optionalEmailField,
  origin: z.enum(QUICK_QUOTE_ORIGINS, { error: 'Origen no válido.' }).default('unknown'),
  ...attributionShape,
  ...consentShape,
});

export type QuickQuote = z.output<typeof quickQuoteSchema>;
