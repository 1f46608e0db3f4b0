/// <reference types="astro/client" />

// A module, so that the block below adds to Astro's types instead of replacing them.
export {};

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointer, touch or focus inside the island. */
    'client:interaction'?: boolean;
  }
}

declare module 'virtual:page-script' {
  /** src/scripts/site.ts as one minified classic script (src/integrations/page-script.ts). */
  export const code: string;
  /** Its Content-Security-Policy hash, `sha256-…`. */
  export const hash: string;
}
