import * as z from 'zod/mini';
import type { EndpointMessages } from './definition.ts';
import { estimateForm, estimateSchema } from './estimate.ts';
import { preFilterForm, preFilterSchema } from './pre-filter.ts';

/** /prefiltro and /estimacion post to one endpoint; `source` tells them apart. */
export const quoteRequestSchema = z.discriminatedUnion('source', [preFilterSchema, estimateSchema], {
  error: 'Tipo de solicitud no válido.',
});

export type QuoteRequest = z.output<typeof quoteRequestSchema>;

/** The endpoint answers in the words of the form that sent the request; the estimate's for anything else. */
export function quoteRequestMessages(body: Record<string, unknown>): EndpointMessages {
  return body.source === 'prefiltro' ? preFilterForm.messages : estimateForm.messages;
}
