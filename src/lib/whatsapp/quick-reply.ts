/**
 * A quick reply's fields (issue #27, decision 0039), one definition for the
 * administrators' editor and the function; re-exported by `contract.ts`. Its
 * own module so the panel's island takes it without the send schemas.
 * Browser-safe: zod's mini build.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { multiLineChecks, singleLineChecks } from '../admin/text.ts';

export const quickReplySchema = z.object({
  title: z
    .string()
    .check(
      ...singleLineChecks,
      z.trim(),
      z.minLength(1, 'Escribe un título.'),
      z.maxLength(60, 'El título admite hasta 60 caracteres.'),
    ),
  body: z
    .string()
    .check(
      ...multiLineChecks,
      z.trim(),
      z.minLength(1, 'Escribe la respuesta.'),
      z.maxLength(1000, 'La respuesta admite hasta 1000 caracteres.'),
    ),
});
export type QuickReplyInput = z.infer<typeof quickReplySchema>;
export const quickReplyPatchSchema = z.partial(quickReplySchema);
