import { TOUCH_KEYS } from '../../lib/admin/attribution.ts';
import { PARAMS } from '../../lib/client/attribution.ts';

/** A User-Agent as kept: printable characters only, at most 512 of them; null when nothing is left. */
export function keptUserAgent(value: string | null | undefined): string | null {
  const kept = value
    ?.replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 512);
  return kept ? kept : null;
}

/** The query parameters a landing path keeps: the attribution's (and Meta's fbclid), never another (a signed link's `t`). */
const LANDING_PARAMS: ReadonlySet<string> = new Set([...PARAMS, 'fbclid']);

/**
 * A landing path as kept: the path, and of its query the attribution's
 * parameters only. A visit that began at a buyer's signed link
 * (/cita?t=…, /pagar?t=…) kept the token as its landing page, shown in the
 * panel and sent to Meta: a link that moves or cancels the visit.
 */
export function keptLandingPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/')) return null;
  // Read as the path it is, never as a URL: `//?utm_source=fb` (an ad's `{lpurl}/?…`) is a host to new URL().
  const [path = '/', query = ''] = (value.split('#')[0] ?? '').split(/\?(.*)/s);
  const kept = new URLSearchParams([...new URLSearchParams(query)].filter(([name]) => LANDING_PARAMS.has(name)));
  const search = kept.toString();
  return `${path}${search ? `?${search}` : ''}`;
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
  const landing = keptLandingPath(values.landing_path as string | null | undefined);
  const touch: Record<string, string> = Object.fromEntries(
    TOUCH_KEYS.filter((key) => values[key] !== null && values[key] !== undefined)
      .map((key) => [key, key === 'landing_path' ? landing : String(values[key])])
      .filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const agent = keptUserAgent(userAgent);
  if (agent && Object.keys(touch).length > 0) touch.client_user_agent = agent;
  return touch;
}
