import type { AstroIntegration } from 'astro';
import { assertContent, PROJECT_ROOT } from '../data/content-check.ts';

/**
 * Checks every data file and the legal pages before Astro reads them, so a
 * broken file (a price written as text, a missing image, a repeated model id,
 * a gallery without its 17 images) stops `astro dev` and `astro build` with a
 * Spanish message naming the file, the entry and the field. `root` is the
 * project's folder (the tests point it at a copy).
 */
export function contentCheck({ root = PROJECT_ROOT }: { root?: string } = {}): AstroIntegration {
  return {
    name: 'content-check',
    hooks: {
      'astro:config:setup': () => assertContent(root),
    },
  };
}
