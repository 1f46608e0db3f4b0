/// <reference types="astro/client" />

// A module, so that the block below adds to Astro's types instead of replacing them.
export {};

declare module 'astro' {
  interface AstroClientDirectives {
    /**
     * Hydrate on the first pointer, touch or focus inside the island; `"prefetch"` also fetches
     * its code at the lowest priority once the page is idle (a page that is its form).
     */
    'client:interaction'?: boolean | 'prefetch';
  }
}
