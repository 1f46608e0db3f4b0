import { TOUCH_KEYS } from '../../lib/admin/attribution.ts';

/** A User-Agent as kept: printable characters only, at most 512 of them; null when nothing is left. */
export function keptUserAgent(value: string | null | undefined): string | null {
  const kept = value
    ?.replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 512);
  return kept ? kept : null;
}

/**
 * The touch a request of the site brings (its utm values, referrer, landing
 * path and click ids: TOUCH_KEYS), with the browser's User-Agent when it has
 * any, which Meta requires of a website event: what a lead's or a booking's
 * contact keeps as its first and last touch. Empty without one, so a request
 * without it (session storage off) leaves the contact's last touch whole.
 */
export function visitTouch(
  values: Record<string, unknown>,
  userAgent: string | null | undefined,
): Record<string, string> {
  const touch: Record<string, string> = Object.fromEntries(
    TOUCH_KEYS.filter((key) => values[key] !== null && values[key] !== undefined).map((key) => [
      key,
      String(values[key]),
    ]),
  );
  const agent = keptUserAgent(userAgent);
  if (agent && Object.keys(touch).length > 0) touch.client_user_agent = agent;
  return touch;
}
