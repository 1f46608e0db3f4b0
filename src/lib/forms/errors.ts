import * as z from 'zod/mini';

/**
 * Shown for an issue that has no message of ours: never expected (a property
 * test proves every field of every form has its own), but a visitor must
 * never read a library's wording ("se esperaba nonoptional…").
 */
export const FALLBACK_FIELD_MESSAGE = 'Revisa este dato.';

// Every issue without a message written for it gets ours, never zod's own text.
z.config({ customError: () => FALLBACK_FIELD_MESSAGE });

/** The first message of each field, keyed by field name: what a form shows under each input. */
export function fieldMessages(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[0] ?? '_')] ??= issue.message;
  return fields;
}
