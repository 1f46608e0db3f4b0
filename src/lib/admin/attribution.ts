/** The attribution of a visit, as stored with each lead and call, and its labels for the team. Browser-safe. */
export const ATTRIBUTION_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'referrer',
  'landing_path',
] as const;
export type AttributionKey = (typeof ATTRIBUTION_KEYS)[number];

/**
 * The ad platforms' click ids of the visit (issue #43): kept with each lead
 * and call beside its UTM values and in the contact's touches, for the
 * conversions told back to Google and Meta; not shown to the team as such.
 */
export const CLICK_KEYS = ['gclid', 'gbraid', 'wbraid', 'fbc'] as const;
export type ClickKey = (typeof CLICK_KEYS)[number];

/** Everything a touch keeps: the attribution and the click ids. */
export const TOUCH_KEYS = [...ATTRIBUTION_KEYS, ...CLICK_KEYS] as const;

/** What the team reads for each (issue #26); the CSV keeps the UTM names the marketing team exports by. */
export const ATTRIBUTION_LABELS: Record<AttributionKey, string> = {
  utm_source: 'Fuente',
  utm_medium: 'Medio',
  utm_campaign: 'Campaña',
  utm_term: 'Término de búsqueda',
  utm_content: 'Anuncio',
  referrer: 'Referencia',
  landing_path: 'Página de llegada',
};

/** The attribution's present values, in the keys' order, with their labels. */
export function attributionRows(attribution: Partial<Record<string, string>>): { label: string; value: string }[] {
  return ATTRIBUTION_KEYS.filter((key) => attribution[key]).map((key) => ({
    label: ATTRIBUTION_LABELS[key],
    value: attribution[key] as string,
  }));
}

const META_SOURCES = new Set(['facebook', 'fb', 'instagram', 'ig', 'meta']);
const GOOGLE_SOURCES = new Set(['google', 'googleads', 'google-ads', 'adwords']);
const PAID_MEDIA = new Set(['cpc', 'ppc', 'paid', 'paid_social', 'paidsocial', 'ads', 'anuncio', 'display']);

/** «Casa Ceiba en 6 semanas» or nothing. */
const quoted = (value: string | undefined, before: string) => (value ? `${before}«${value}»` : '');

/**
 * Where a person came from, in the team's words (issue #43), from a touch
 * (a contact's first or last): "Anuncio de WhatsApp «Casa Ceiba en 6
 * semanas»", "Google Ads, campaña «otono-2026»", "Anuncio de Meta, campaña
 * «…»", "Escribió por WhatsApp", "google (organic)", "Enlace desde
 * www.ejemplo.mx", "Directo (sin campaña)".
 */
export function touchWords(touch: Partial<Record<string, string>>): string {
  const source = touch.utm_source?.toLowerCase();
  const medium = touch.utm_medium?.toLowerCase();
  const campaign = quoted(touch.utm_campaign, ', campaña ');
  if (source === 'whatsapp') {
    return medium === 'anuncio' ? `Anuncio de WhatsApp${quoted(touch.utm_campaign, ' ')}` : 'Escribió por WhatsApp';
  }
  if (
    touch.gclid ||
    touch.gbraid ||
    touch.wbraid ||
    (source && GOOGLE_SOURCES.has(source) && PAID_MEDIA.has(medium ?? ''))
  ) {
    return `Google Ads${campaign}`;
  }
  if (touch.fbc || (source && META_SOURCES.has(source) && PAID_MEDIA.has(medium ?? ''))) {
    return `Anuncio de Meta (Facebook o Instagram)${campaign}`;
  }
  if (touch.utm_source) return `${touch.utm_source}${touch.utm_medium ? ` (${touch.utm_medium})` : ''}${campaign}`;
  if (touch.referrer) {
    try {
      return `Enlace desde ${new URL(touch.referrer).hostname}`;
    } catch {
      return 'Enlace desde otro sitio';
    }
  }
  return 'Directo (sin campaña)';
}
