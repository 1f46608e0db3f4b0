/**
 * Where this visit came from: the `utm_*` parameters, the ad platforms'
 * click ids (Google's gclid, gbraid, wbraid; Meta's fbclid, kept as its fbc
 * `fb.1.<first seen>.<fbclid>`), the referrer and the landing path of the
 * first page of the session, sent with every lead and call. First-party
 * only: read from our own URL, kept in this tab's session storage, no cookie
 * and no script of the platforms (issue #43).
 */
const KEY = 'attribution';
/** The query parameters of a visit's attribution (a landing path keeps these alone: server/leads/touch.ts). */
export const PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'gbraid',
  'wbraid',
] as const;

export type Attribution = Partial<Record<(typeof PARAMS)[number] | 'fbc' | 'referrer' | 'landing_path', string>>;

/** Keeps the first page's attribution for the rest of the session. */
export function captureAttribution(): void {
  try {
    if (sessionStorage.getItem(KEY)) return;
    const params = new URLSearchParams(location.search);
    const attribution: Attribution = { landing_path: (location.pathname + location.search).slice(0, 2000) };
    for (const name of PARAMS) {
      const value = params.get(name)?.trim();
      if (value) attribution[name] = value.slice(0, name.startsWith('utm') ? 200 : 500);
    }
    // Meta's click id exactly as it came (case-sensitive), with the moment it was first seen.
    const fbclid = params.get('fbclid');
    if (fbclid && /^[!-~]{1,400}$/.test(fbclid)) attribution.fbc = `fb.1.${Date.now()}.${fbclid}`;
    if (document.referrer && new URL(document.referrer).origin !== location.origin) {
      attribution.referrer = document.referrer.slice(0, 2000);
    }
    sessionStorage.setItem(KEY, JSON.stringify(attribution));
  } catch {
    // Storage can be off (private mode, policies): leads go without attribution.
  }
}

export function readAttribution(): Attribution {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Attribution;
  } catch {
    return {};
  }
}
