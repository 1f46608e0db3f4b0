import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUDGETS,
  FINISHES,
  INVESTMENT_RANGES,
  LAND_OPTIONS,
  LAND_SIZES,
  MEXICAN_STATES,
  OBJECTIVES,
  PARTNER_ROLES,
  PARTNER_STATES,
  PARTNER_TIMELINES,
  PREFILTER_TIMELINES,
  PROJECT_TYPES,
  QUICK_QUOTE_ORIGINS,
  YES_NO,
} from '../../src/lib/forms/options.ts';
import { postJson, type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Generated payloads, valid and invalid by construction: each case knows
 * whether it must be stored and, if so, what the row must hold after the
 * documented normalisation (trimming, phone to +52..., e-mail lower-cased,
 * empty optional values to null).
 */
interface Case {
  body: Record<string, unknown>;
  /** Column -> expected value, or null when the payload must be refused. */
  expected: Record<string, unknown> | null;
}

const RUNS = 1000;

const HOSTILE = [
  "'; DROP TABLE quote_requests; --",
  "Robert'); DELETE FROM users WHERE ('1'='1",
  '<script>alert("xss")</script>',
  '<img src=x onerror=alert(1)>',
  '=HYPERLINK("http://evil.example","clic")',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  '${7*7} {{7*7}}',
  '\\x00 \\u0000',
] as const;

const padding = fc.constantFrom('', ' ', '  ', '\t', '\n ', '\u00a0', '\u3000');

/** Free text that must be stored exactly, once trimmed. */
const cleanText = (maxLength: number) =>
  fc
    .oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 60) }),
      fc.constantFrom(...HOSTILE, 'José Ñúñez', 'Mérida, Yucatán', '👩‍👩‍👧 familia', 'Zoë Ångström'),
    )
    .map((text) => text.trim())
    .filter(
      (text) =>
        text.length > 0 &&
        text.length <= maxLength &&
        !/[\u0000-\u001f\u007f]/.test(text) &&
        // Bidirectional controls are removed before storing (input-hardening.test.ts covers them).
        !/[\u202a-\u202e\u2066-\u2069]/.test(text),
    );

const paddedText = (maxLength: number) =>
  fc
    .tuple(padding, cleanText(maxLength), padding)
    .map(([before, core, after]) => ({ sent: before + core + after, stored: core }));

/** A name or a place: stored as sent when it has at least one letter or digit (refused otherwise). */
const requiredText = (maxLength: number) => paddedText(maxLength).filter(({ stored }) => /[\p{L}\p{N}]/u.test(stored));

const phone = fc
  .tuple(fc.integer({ min: 2, max: 9 }), fc.stringMatching(/^\d{9}$/), fc.integer({ min: 0, max: 6 }))
  .map(([first, rest, style]) => {
    const digits = `${first}${rest}`;
    const [area, middle, last] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
    const sent = [
      digits,
      `${area} ${middle} ${last}`,
      `(${area}) ${middle}-${last}`,
      `+52 ${digits}`,
      `+52 1 ${area} ${middle} ${last}`,
      `52${digits}`,
      `0052 ${area}.${middle}.${last}`,
    ][style] as string;
    return { sent, stored: `+52${digits}` };
  });

const email = fc.oneof(
  fc.constantFrom({ sent: '', stored: null }, { sent: null, stored: null }, { sent: undefined, stored: null }),
  fc
    .tuple(
      fc.stringMatching(/^[a-zA-Z0-9]{1,12}([._+-][a-zA-Z0-9]{1,8})?$/),
      fc.stringMatching(/^[a-zA-Z0-9]{1,12}\.(mx|com|de)$/),
      padding,
    )
    .map(([local, domain, pad]) => ({
      sent: `${pad}${local}@${domain}${pad}`,
      stored: `${local}@${domain}`.toLowerCase(),
    })),
);

const choice = <T extends string>(values: readonly T[]) =>
  fc.constantFrom(...values).map((value) => ({ sent: value, stored: value }));
const optionalChoice = <T extends string>(values: readonly T[]) =>
  fc.oneof(choice(values), fc.constantFrom({ sent: '', stored: null }, { sent: null, stored: null }));

const attribution = fc.record(
  {
    utm_source: fc.oneof(paddedText(200), fc.constant({ sent: '', stored: null })),
    utm_campaign: paddedText(200),
    referrer: fc.webUrl().map((url) => ({ sent: url, stored: url })),
    // The path as sent; of its query, the attribution's parameters only (never a signed link's token).
    landing_path: fc
      .webPath()
      .map((path) => `/${path.replace(/^\/+/, '')}`.replace(/[?#].*/s, ''))
      .chain((path) =>
        fc.constantFrom(
          { sent: path, stored: path },
          { sent: `${path}?t=v1.firmado&utm_source=google`, stored: `${path}?utm_source=google` },
        ),
      ),
  },
  { requiredKeys: [] },
);

type Field = { sent: unknown; stored: unknown };

/** Splits generated fields into the body to send and the row to expect. */
function toCase(
  fields: Record<string, Field | undefined>,
  storedAs: Record<string, string> = {},
): { body: Record<string, unknown>; expected: Record<string, unknown> } {
  const body: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!field) continue;
    if (field.sent !== undefined) body[name] = field.sent;
    expected[storedAs[name] ?? name] = field.stored;
  }
  return { body, expected };
}

const validQuickQuote = fc
  .record({ name: requiredText(120), phone, email, origin: choice(QUICK_QUOTE_ORIGINS), attribution })
  .map(({ attribution: extra, ...fields }) => toCase({ ...fields, ...extra }));

const validPreFilter = fc
  .record({
    source: fc.constant({ sent: 'prefiltro', stored: 'prefiltro' }),
    name: requiredText(120),
    phone,
    state: optionalChoice(MEXICAN_STATES),
    municipality: requiredText(120),
    land_option: choice(LAND_OPTIONS),
    timeline: optionalChoice(PREFILTER_TIMELINES),
    objective: optionalChoice(OBJECTIVES),
    attribution,
  })
  .map(({ attribution: extra, ...fields }) =>
    toCase({ ...fields, ...extra }, { land_option: 'has_land', timeline: 'need_land_help', objective: 'house_size' }),
  );

const validEstimate = fc
  .record({
    source: fc.constant({ sent: 'estimacion', stored: 'estimacion' }),
    name: requiredText(120),
    phone,
    email,
    terrain_size: fc.oneof(
      fc.constantFrom({ sent: '', stored: null }, { sent: null, stored: null }),
      fc.integer({ min: 1, max: 1_000_000 }).map((size) => ({ sent: size, stored: String(size) })),
      fc.integer({ min: 1, max: 99_999 }).map((size) => ({ sent: ` ${size}.5`, stored: `${size}.5` })),
    ),
    levels: fc.constantFrom({ sent: 1, stored: 1 }, { sent: '2', stored: 2 }, { sent: undefined, stored: 1 }),
    finishes: choice(FINISHES),
    budget: fc.oneof(choice(BUDGETS), fc.constantFrom({ sent: '', stored: 'Aún no lo sé' })),
    attribution,
  })
  .map(({ attribution: extra, ...fields }) => {
    const result = toCase({ ...fields, ...extra });
    return {
      ...result,
      expected: { ...result.expected, has_land: result.expected.terrain_size === null ? 'no' : 'si' },
    };
  });

const validPartner = fc
  .record({
    name: requiredText(120),
    phone,
    role: choice(PARTNER_ROLES),
    project_type: optionalChoice(PROJECT_TYPES),
    state: optionalChoice(PARTNER_STATES),
    municipality: requiredText(120),
    land_size: optionalChoice(LAND_SIZES),
    investment: choice(INVESTMENT_RANGES),
    timeline: choice(PARTNER_TIMELINES),
    legal_documentation: choice(YES_NO),
    consultancy_payment: choice(YES_NO),
    attribution,
  })
  .map(({ attribution: extra, ...fields }) => toCase({ ...fields, ...extra }));

const wrongType = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }), // NaN and Infinity would travel as null
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

/** One way to break a valid payload, with the fields it applies to. */
function invalidFrom(
  valid: fc.Arbitrary<Case>,
  fields: {
    text: string[];
    required: string[];
    choices: Record<string, readonly string[]>;
    limits: Record<string, number>;
  },
): fc.Arbitrary<Case> {
  const breakers: fc.Arbitrary<(body: Record<string, unknown>) => void>[] = [
    fc
      .tuple(fc.constantFrom(...fields.text, ...Object.keys(fields.choices)), wrongType)
      .map(([field, value]) => (body) => {
        body[field] = value;
      }),
    fc.constantFrom(...fields.required).map((field) => (body) => {
      delete body[field];
    }),
    fc
      .tuple(
        fc.constantFrom(...Object.entries(fields.limits)),
        fc.integer({ min: 1, max: 4000 }),
        fc.constantFrom('x', 'ñ', '💥'),
      )
      .map(([[field, limit], extra, unit]) => (body) => {
        body[field] = unit.repeat(limit + extra);
      }),
    fc
      .tuple(
        fc.constantFrom(...Object.entries(fields.choices)),
        fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })),
      )
      .filter(([[, allowed], value]) => value.trim() !== '' && !allowed.includes(value))
      .map(([[field], value]) => (body) => {
        body[field] = value;
      }),
    fc.constantFrom('phone').map((field) => (body) => {
      body[field] = 'llámame al 999';
    }),
  ];
  return fc.tuple(valid, fc.oneof(...breakers)).map(([{ body }, breakIt]) => {
    const broken = structuredClone(body);
    breakIt(broken);
    return { body: broken, expected: null };
  });
}

const endpoints = [
  {
    path: '/api/quick-quotes',
    table: 'cotizaciones_rapidas',
    cases: fc.oneof(
      validQuickQuote,
      invalidFrom(validQuickQuote, {
        text: ['name', 'phone', 'email'],
        required: ['name', 'phone'],
        choices: { origin: QUICK_QUOTE_ORIGINS },
        limits: { name: 120, email: 254 },
      }),
    ),
  },
  {
    path: '/api/quote-requests',
    table: 'quote_requests',
    cases: fc.oneof(
      validPreFilter,
      validEstimate,
      invalidFrom(validPreFilter, {
        text: ['name', 'phone', 'municipality', 'source'],
        required: ['source', 'name', 'phone', 'municipality', 'land_option'],
        choices: {
          state: MEXICAN_STATES,
          land_option: LAND_OPTIONS,
          timeline: PREFILTER_TIMELINES,
          objective: OBJECTIVES,
        },
        limits: { name: 120, municipality: 120 },
      }),
      invalidFrom(validEstimate, {
        text: ['name', 'phone', 'email', 'source'],
        required: ['source', 'name', 'phone'],
        choices: { finishes: FINISHES, budget: BUDGETS },
        limits: { name: 120, email: 254 },
      }),
    ),
  },
  {
    path: '/api/partner-applications',
    table: 'partner_applications',
    cases: fc.oneof(
      validPartner,
      invalidFrom(validPartner, {
        text: ['name', 'phone', 'municipality'],
        required: [
          'name',
          'phone',
          'municipality',
          'role',
          'investment',
          'timeline',
          'legal_documentation',
          'consultancy_payment',
        ],
        choices: {
          role: PARTNER_ROLES,
          project_type: PROJECT_TYPES,
          state: PARTNER_STATES,
          land_size: LAND_SIZES,
          investment: INVESTMENT_RANGES,
          timeline: PARTNER_TIMELINES,
          legal_documentation: YES_NO,
          consultancy_payment: YES_NO,
        },
        limits: { name: 120, municipality: 120 },
      }),
    ),
  },
] as const;

let server: RunningServer;
beforeAll(async () => {
  // A thousand payloads from this machine: past the functions' own rateLimit (tested in platform-rate-limit).
  server = await startServer({ PLATFORM_RATE_LIMIT: '0' });
});

describe.each(endpoints)('$path with generated payloads', ({ path, table, cases }) => {
  it(`answers ${RUNS} payloads with 2xx or 4xx only, storing exactly the valid ones as sent`, async () => {
    let valid = 0;
    await fc.assert(
      fc.asyncProperty(cases, async ({ body, expected }) => {
        const key = randomUUID();
        const response = await postJson(server.url + path, body, { 'Idempotency-Key': key });
        const answer = await response.json();
        const rows = await sql(`SELECT * FROM ${table} WHERE idempotency_key = $1`, [key]);
        if (expected === null) {
          const tooLarge = Buffer.byteLength(JSON.stringify(body)) > 16 * 1024;
          expect(response.status).toBe(tooLarge ? 413 : 400);
          if (!tooLarge) expect(Object.keys(answer.fields ?? {}).length).toBeGreaterThan(0);
          expect(rows).toHaveLength(0);
        } else {
          expect(response.status, JSON.stringify(answer)).toBe(201);
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject(expected);
          valid++;
        }
      }),
      { numRuns: RUNS },
    );
    const [{ count }] = (await sql<{ count: string }>(`SELECT count(*) FROM ${table}`)) as [{ count: string }];
    expect(Number(count)).toBe(valid);
    expect(valid).toBeGreaterThan(RUNS / 5);
    expect(server.output()).not.toMatch(/lead_not_saved/);
  }, 300_000); // 1,000 requests: about 15 s on a quiet machine, 25 s beside a build, 120 s beside a second suite
});
