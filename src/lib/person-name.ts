/**
 * A visitor's name (or place) reduced to what it means before it reaches
 * text that our business number sends (a WhatsApp template's `{nombre}`) or
 * an e-mail's subject (issue #38, decision 0049): the letters of a real name
 * in any script, with accents, spaces, apostrophes and hyphens, of a bounded
 * length. A value with anything else (a URL, an e-mail, digits, markup,
 * punctuation, symbols, invisible or bidirectional characters) is not a name
 * here, and the caller falls back to a neutral text. What was typed is still
 * stored and shown as typed in the panel; this only decides what we put in
 * our own words. Browser-safe (the composer previews with it).
 */

import { formatPhone } from './forms/phone.ts';

/** A whole name (or place) longer than this is not used in our text. */
export const NAME_MAX = 60;
/** A greeting's first name longer than this is not used either. */
export const GREETING_NAME_MAX = 24;

/**
 * Words of letters (with their combining accents), joined by one space, an
 * apostrophe (' or ’) or a hyphen: "María José", "O’Brien", "Aké-Dzib", "Δήμητρα".
 */
const REAL_NAME = /^\p{L}\p{M}*(?:[ '’-]?\p{L}\p{M}*)*$/u;

/** The value's text as a person reads it: NFC, spaces collapsed, trimmed. */
function tidy(value: string | null | undefined): string {
  return (value ?? '').normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The name as written when it reads as a person's (or a place's) name, else null. */
export function realName(value: string | null | undefined): string | null {
  const name = tidy(value);
  if (name === '' || name.length > NAME_MAX || !REAL_NAME.test(name)) return null;
  return name;
}

/** The first name of a real name, for a greeting ("María José López" -> "María"), else null. */
export function greetingName(value: string | null | undefined): string | null {
  const first = realName(value)?.split(' ')[0];
  return first && first.length <= GREETING_NAME_MAX ? first : null;
}

/**
 * How our own text (an e-mail's subject, a notice's title) names a contact:
 * their name when it is a real name, otherwise their phone as a person reads
 * it (always ours: normalised when stored).
 */
export function nameOrPhone(name: string | null | undefined, phone: string): string {
  return realName(name) ?? formatPhone(phone);
}
