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

/** UTM parameters keep their names (the marketing team knows them by those). */
export const ATTRIBUTION_LABELS: Record<AttributionKey, string> = {
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_term: 'utm_term',
  utm_content: 'utm_content',
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
