import { writeFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { toNetlifyHeadersFile } from '../server/http/headers.ts';

/** Writes `dist/_headers` for Netlify from the rules the local server applies too. */
export function netlifyHeaders(): AstroIntegration {
  return {
    name: 'netlify-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        await writeFile(new URL('_headers', dir), toNetlifyHeadersFile());
        logger.info('Wrote _headers');
      },
    },
  };
}
