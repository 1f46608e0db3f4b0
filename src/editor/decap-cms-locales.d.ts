/**
 * decap-cms-locales ships no types: its phrases are nested objects of strings.
 * One locale's module each (its package's main is a browser-only bundle).
 */
declare module 'decap-cms-locales/dist/esm/es/index.js' {
  const phrases: Record<string, unknown>;
  export default phrases;
}
declare module 'decap-cms-locales/dist/esm/en/index.js' {
  const phrases: Record<string, unknown>;
  export default phrases;
}

/** decap-cms-core's backend module (decap-cms-app's own copy, bundled once): the signed-in backend. */
declare module 'decap-cms-core/dist/esm/backend' {
  export const currentBackend: (config: unknown) => unknown;
}
