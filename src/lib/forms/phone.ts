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
