/**
 * Where a lead typed in by the team ("Nuevo prospecto") came from: the
 * choices of the form, in this order, with what the history reads
 * ("Capturado por Ana (llamada)"). Add one here; nothing else changes.
 */
export const LEAD_ORIGINS = [
  { value: 'llamada', label: 'Llamada', words: 'llamada' },
  { value: 'visita', label: 'Visita', words: 'visita' },
  { value: 'instagram', label: 'Instagram', words: 'Instagram' },
  { value: 'facebook', label: 'Facebook', words: 'Facebook' },
  { value: 'recomendacion', label: 'Recomendación', words: 'recomendación' },
  { value: 'otro', label: 'Otro', words: 'otro' },
] as const;

export type LeadOrigin = (typeof LEAD_ORIGINS)[number]['value'];
export const LEAD_ORIGIN_VALUES = LEAD_ORIGINS.map((origin) => origin.value) as [LeadOrigin, ...LeadOrigin[]];

/** The origin in the words of the history; the stored value itself when it is not (or no longer) in the list. */
export const originWords = (value: string | null): string =>
  LEAD_ORIGINS.find((origin) => origin.value === value)?.words ?? value ?? '';
