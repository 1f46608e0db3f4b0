/**
 * Normalises a phone number typed by a visitor to E.164.
 *
 * Mexican numbers (10 national digits, with or without +52, with the old
 * mobile "1" after the country code, or the 00 international prefix) become
 * "+52XXXXXXXXXX". Numbers that start with another country code are kept in
 * E.164 form, so visitors writing from abroad (our Berlin office) are not
 * refused. Anything else returns null.
 *
 * Allowed separators: spaces, dots, dashes and parentheses.
 */
export function normalizePhone(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, '');
  const match = /^(\+|00)?(\d+)$/.exec(compact);
  if (!match) return null;
  const [, internationalPrefix, digits = ''] = match;

  if (!internationalPrefix) {
    if (digits.length === 10) return mexican(digits);
    if (digits.length === 12 && digits.startsWith('52')) return mexican(digits.slice(2));
    if (digits.length === 13 && digits.startsWith('521')) return mexican(digits.slice(3));
    return null;
  }
  if (digits.startsWith('52')) {
    const national = digits.slice(2);
    return mexican(national.length === 11 && national.startsWith('1') ? national.slice(1) : national);
  }
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}

/** Mexican national numbers have 10 digits and never start with 0 or 1. */
function mexican(national: string): string | null {
  return /^[2-9]\d{9}$/.test(national) ? `+52${national}` : null;
}

/** Mexico City, Guadalajara and Monterrey dial 2-digit area codes: "55 1234 5678"; the rest 3: "999 100 0000". */
const TWO_DIGIT_AREAS = ['55', '56', '33', '81'];

/**
 * A stored phone (E.164) as a person reads it: a Mexican number in the
 * national way ("+529991000000" -> "999 100 0000"), any other as stored.
 * Links (tel:, wa.me) and exports keep the E.164 form.
 */
export function formatPhone(e164: string): string {
  const national = /^\+52([2-9]\d{9})$/.exec(e164)?.[1];
  if (!national) return e164;
  return TWO_DIGIT_AREAS.includes(national.slice(0, 2))
    ? `${national.slice(0, 2)} ${national.slice(2, 6)} ${national.slice(6)}`
    : `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
}
