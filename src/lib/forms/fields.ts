import * as z from 'zod/mini';
import './errors.ts'; // no library wording reaches a visitor
import { PRIVACY_NOTICE_VERSIONS } from '../../data/legal.ts';
import { withoutBidiControls } from '../bidi.ts';
import { normalizePhone } from './phone.ts';

export const LIMITS = {
  name: 120,
  municipality: 120,
  email: 254,
  phoneInput: 30,
  utm: 200,
  url: 2000,
  clickId: 500,
} as const;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** A letter or a digit in any script: what a name or a place needs at least one of. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const INVALID_CHARACTERS = 'Contiene caracteres no válidos.';
const NOT_TEXT = 'Debe ser texto.';

/** Single-line text that PostgreSQL stores exactly as sent (after trimming). */
function isCleanText(value: string): boolean {
  return value.isWellFormed() && !CONTROL_CHARACTERS.test(value);
}

// zod's mini build (decision 0023): the forms' schemas reach the browser, and it is a
// fraction of the full build's bytes and start-up time at a visitor's first tap.
const textChecks = (max: number) =>
  [
    z.overwrite((value: string) => withoutBidiControls(value).trim()),
    z.maxLength(max, `Usa como máximo ${max} caracteres.`),
    z.refine<string>(isCleanText, INVALID_CHARACTERS),
  ] as const;

const textType = (requiredMessage: string) =>
  z.string({ error: (issue) => (issue.input == null ? requiredMessage : NOT_TEXT) });

/**
 * A required single-line text: trimmed, without bidirectional controls, with
 * at least one letter or digit (a name of zero-width spaces or a lone accent
 * is no name).
 */
export function requiredText(requiredMessage: string, max: number) {
  return textType(requiredMessage).check(
    ...textChecks(max),
    z.minLength(1, requiredMessage),
    z.refine((value) => LETTER_OR_DIGIT.test(value), requiredMessage),
  );
}

/** An optional single-line text: empty, null or absent becomes null. */
export function optionalText(max: number) {
  return z.pipe(
    z.nullish(textType(NOT_TEXT).check(...textChecks(max))),
    z.transform((value: string | null | undefined) => value || null),
  );
}

/** One value of a fixed option set, required. */
export function requiredChoice<const T extends readonly [string, ...string[]]>(values: T, requiredMessage: string) {
  return z.enum(values, {
    error: (issue) => (issue.input == null || issue.input === '' ? requiredMessage : 'Elige una opción de la lista.'),
  });
}

/** One value of a fixed option set, or nothing: empty, null or absent becomes null. */
export function optionalChoice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.pipe(
    z.nullish(z.union([z.literal(''), z.enum(values)], { error: 'Elige una opción de la lista.' })),
    z.transform((value: T[number] | '' | null | undefined) => value || null),
  );
}

export const nameField = requiredText('Escribe tu nombre.', LIMITS.name);

/**
 * A required phone number, normalised to E.164 (+52... for Mexico):
 * `requiredMessage` when it is missing, one message for any number that is
 * not one. The public forms' and the panel's phone (src/lib/admin/contact-work.ts).
 */
export function requiredPhone(requiredMessage: string) {
  return z.pipe(
    requiredText(requiredMessage, LIMITS.phoneInput),
    z.transform((value: string, context) => {
      const phone = normalizePhone(value);
      if (phone) return phone;
      context.issues.push({
        code: 'custom',
        message: 'Escribe un número de 10 dígitos, por ejemplo 999 123 4567.',
        input: value,
      });
      return z.NEVER;
    }),
  );
}

/** A visitor's phone (WhatsApp) number. */
export const phoneField = requiredPhone('Escribe tu número de WhatsApp.');

/** An optional e-mail: trimmed, lower-cased; empty becomes null. */
export const optionalEmailField = z.pipe(
  z.nullish(
    z.union(
      [
        z.literal(''),
        z.pipe(
          z.string().check(z.trim(), z.toLowerCase(), z.maxLength(LIMITS.email, 'El correo es demasiado largo.')),
          z.union([z.email('Escribe un correo válido, por ejemplo nombre@correo.com.'), z.literal('')]),
        ),
      ],
      { error: 'Escribe un correo válido, por ejemplo nombre@correo.com.' },
    ),
  ),
  z.transform((value: string | null | undefined) => value || null),
);

/** An ad platform's click id, or null: anything else is dropped rather than refusing the lead. */
function clickId() {
  return z.pipe(
    z.optional(z.nullable(z.unknown())),
    z.transform((value: unknown) =>
      typeof value === 'string' && /^[!-~]{1,500}$/.test(value.trim()) ? value.trim() : null,
    ),
  );
}

/**
 * Text the visitor never typed nor sees (a utm value, the referrer, the
 * landing path: from the URL the visit came with), reduced to clean text of
 * at most `max` characters, or null: control and bidirectional characters
 * dropped, a character cut in half at the limit dropped. Never a refusal: a
 * lead is not lost for a hidden field the visitor cannot correct.
 */
export const trackedText = (max: number) =>
  z.pipe(
    z.optional(z.nullable(z.unknown())),
    z.transform((value: unknown) =>
      typeof value === 'string'
        ? [...withoutBidiControls(value.toWellFormed().replace(/[\0-\x1f\x7f]/g, ' ')).trim()]
            .slice(0, max)
            .join('')
            .trim() || null
        : null,
    ),
  );

/** Where the visit came from; sent with every lead, all optional, never a reason to refuse one. */
export const attributionShape = {
  utm_source: trackedText(LIMITS.utm),
  utm_medium: trackedText(LIMITS.utm),
  utm_campaign: trackedText(LIMITS.utm),
  utm_term: trackedText(LIMITS.utm),
  utm_content: trackedText(LIMITS.utm),
  referrer: trackedText(LIMITS.url),
  landing_path: trackedText(LIMITS.url),
  // The ad platforms' click ids (issue #43): printable ASCII, no spaces, as the platforms write them.
  gclid: clickId(),
  gbraid: clickId(),
  wbraid: clickId(),
  fbc: clickId(),
};

/**
 * The optional, unticked "Quiero recibir novedades y promociones" of every
 * form (issue #14): a checked box sends "si" (an API client may send true);
 * stored apart from the privacy notice's acceptance as marketing consent.
 */
export const MARKETING_FIELD = 'marketing';
export const MARKETING_LABEL = 'Quiero recibir novedades y promociones';
/**
 * The privacy notice the visitor saw and the moment they pressed send, taken
 * by the browser at the press and kept with a request that waits in the
 * outbox (issue #25). Not questions of the form: added to the request. Both
 * optional (an API client, or a request kept before they existed, gets the
 * server's version and time); the server bounds the time by its own clock
 * (src/server/leads/consent.ts).
 */
export const PRIVACY_VERSION_FIELD = 'privacy_version';
export const PRIVACY_ACCEPTED_AT_FIELD = 'privacy_accepted_at';
export const consentShape = {
  [MARKETING_FIELD]: z.pipe(
    z.optional(z.union([z.literal('si'), z.boolean()], { error: 'Marca la casilla de novedades o déjala vacía.' })),
    z.transform((value: 'si' | boolean | undefined) => value === 'si' || value === true),
  ),
  [PRIVACY_VERSION_FIELD]: z.optional(
    z.enum(PRIVACY_NOTICE_VERSIONS, { error: 'La versión del aviso de privacidad no es válida. Recarga la página.' }),
  ),
  [PRIVACY_ACCEPTED_AT_FIELD]: z.optional(
    z.iso.datetime({ offset: true, error: 'La hora de aceptación del aviso de privacidad no es válida.' }),
  ),
};

/**
 * A lead form's schema: its own questions (`shape`, in their order), then
 * where the visitor came from and their consent, as every lead form sends them.
 */
export function leadSchema<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object({ ...shape, ...attributionShape, ...consentShape });
}

/**
 * Hidden field that people never see and bots fill in. Its name avoids the
 * words browsers autofill (website, url, company), so no real visitor fills it.
 */
export const HONEYPOT_FIELD = 'nota_interna';
