/** decap-cms-locales ships no types: its phrases are nested objects of strings. */
declare module 'decap-cms-locales' {
  export const es: Record<string, unknown>;
}

/** decap-cms-core's backend module (decap-cms-app's own copy, bundled once): the signed-in backend. */
declare module 'decap-cms-core/dist/esm/backend' {
  export const currentBackend: (config: unknown) => unknown;
}
