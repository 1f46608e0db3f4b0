/** decap-cms-locales ships no types: its phrases are nested objects of strings. */
declare module 'decap-cms-locales' {
  export const es: Record<string, unknown>;
}
