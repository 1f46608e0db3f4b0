import { readdir, writeFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { HEADER_RULES, pageRules, toNetlifyHeadersFile } from '../server/http/headers.ts';

/** Writes `dist/_headers` for Netlify from the rules the local server applies too. */
export function netlifyHeaders(): AstroIntegration {
  return {
    name: 'netlify-headers',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        // Every page, nested ones (admin/llamada.html) included; an unknown path gets only `/*`'s headers.
        const pages = (await readdir(dir, { recursive: true }))
          .map((file) => file.replaceAll('\\', '/'))
          .filter((file) => file.endsWith('.html') && file !== '404.html');
        const paths = pages.map((file) => (file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`));
        await writeFile(new URL('_headers', dir), toNetlifyHeadersFile([...HEADER_RULES, ...pageRules(paths)]));
        logger.info('Wrote _headers');
      },
    },
  };
}
