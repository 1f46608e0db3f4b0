import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ZodObject } from 'zod';
import type { ZodMiniObject } from 'zod/mini';
import { loginSchema, setupSchema } from './credentials.ts';
import { FALLBACK_FIELD_MESSAGE, fieldMessages } from './errors.ts';
import { estimateSchema } from './estimate.ts';
import { partnerApplicationSchema } from './partner-application.ts';
import { preFilterSchema } from './pre-filter.ts';
import { quickQuoteSchema } from './quick-quote.ts';
import { quoteRequestSchema } from './quote-request.ts';

/**
 * Issue #9: no message written by a library reaches a visitor. Whatever a
 * client sends, each field's message is one we wrote for that field: never
 * zod's wording, and never the generic fallback that stands in for it.
 */
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(''),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom('\u200B', '\u0301', '\u202E', ' ', '1', '2', 'si', 'hero', 'a'.repeat(3000)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

// The visitor's forms use zod's mini build; the administrator's sign-in forms, the full one.
const schemas: Record<string, ZodMiniObject | ZodObject> = {
  quickQuote: quickQuoteSchema,
  preFilter: preFilterSchema,
  estimate: estimateSchema,
  partner: partnerApplicationSchema,
  login: loginSchema,
  setup: setupSchema,
};

describe('every field message is ours', () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: any value in any field gets that field's own message`, () => {
      const keys = Object.keys(schema.shape);
      const payload = fc.record(Object.fromEntries(keys.map((key) => [key, value])), { requiredKeys: [] });
      fc.assert(
        fc.property(payload, (body) => {
          const parsed = schema.safeParse(
            name === 'preFilter' || name === 'estimate'
              ? { ...body, source: schema.shape.source?.def.values?.[0] }
              : body,
          );
          if (parsed.success) return;
          for (const issue of parsed.error.issues) {
            expect(issue.message, `${issue.path.join('.')} ${issue.code}`).not.toBe(FALLBACK_FIELD_MESSAGE);
          }
          expect(Object.values(fieldMessages(parsed.error))).not.toContain(FALLBACK_FIELD_MESSAGE);
        }),
        { numRuns: 500 },
      );
    });
  }

  it('the two quote-request forms through their shared union, with any source', () => {
    fc.assert(
      fc.property(fc.record({ source: value, name: value, phone: value }, { requiredKeys: [] }), (body) => {
        const parsed = quoteRequestSchema.safeParse(body);
        if (parsed.success) return;
        for (const issue of parsed.error.issues) expect(issue.message).not.toBe(FALLBACK_FIELD_MESSAGE);
      }),
      { numRuns: 300 },
    );
  });
});
