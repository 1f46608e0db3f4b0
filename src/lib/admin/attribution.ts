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
