/**
 * Where this visit came from: the `utm_*` parameters, the referrer and the
 * landing path of the first page of the session, sent with every lead.
 */
const KEY = 'attribution';
const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

export type Attribution = Partial<Record<(typeof UTM)[number] | 'referrer' | 'landing_path', string>>;

/** Keeps the first page's attribution for the rest of the session. */
export function captureAttribution(): void {
  try {
    if (sessionStorage.getItem(KEY)) return;
    const params = new URLSearchParams(location.search);
    const attribution: Attribution = { landing_path: (location.pathname + location.search).slice(0, 2000) };
    for (const name of UTM) {
      const value = params.get(name)?.trim();
      if (value) attribution[name] = value.slice(0, 200);
    }
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
