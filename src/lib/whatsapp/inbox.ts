/**
 * The inbox's query (GET /api/admin/whatsapp/conversations): one definition
 * for the panel's address and the function (an addition to decision 0039's
 * contract, which names the parameters). Browser-safe.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { singleLineChecks } from '../admin/text.ts';
import { CONVERSATION_FILTERS } from './contract.ts';

export const SEARCH_MAX = 100;

export const conversationQuerySchema = z.object({
  filter: z.optional(z.enum(CONVERSATION_FILTERS, 'Elige un filtro de la lista.')),
  q: z.optional(
    z
      .string()
      .check(
        ...singleLineChecks,
        z.trim(),
        z.maxLength(SEARCH_MAX, `La búsqueda admite hasta ${SEARCH_MAX} caracteres.`),
      ),
  ),
  cursor: z.optional(z.string().check(z.maxLength(200, 'Parámetros de paginación no válidos.'))),
});
export type ConversationQuery = z.infer<typeof conversationQuerySchema>;
