import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** A module's static imports (`import … from "./x.js"`, `import "./x.js"`), not its dynamic ones. */
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*"\.\/([\w.-]+\.js)"/g;

/** Every module an island's entry needs before it runs, itself included, in no particular order. */
async function moduleGraph(assets: URL, entry: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = await readFile(new URL(entry, assets), 'utf8').catch(() => '');
  for (const [, file] of code.matchAll(STATIC_IMPORT)) await moduleGraph(assets, file as string, seen);
  return seen;
}

const ISLAND = /<astro-island\b[^>]*\bclient="interaction"[^>]*>/g;
const URL_ATTRIBUTE = /\b(?:component|renderer)-url="\/_astro\/([\w.-]+\.js)"/g;

/**
 * Registers `client:interaction` (see interaction-directive.ts), and after the
 * build writes on each such island the whole module graph of its component
 * and renderer (`data-preload`): at the first touch the directive asks for all
 * of it at once instead of discovering it import by import (issue #14).
 */
export function hydrateOnInteraction(): AstroIntegration {
  return {
    name: 'hydrate-on-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction-directive.ts', import.meta.url)),
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const assets = new URL('_astro/', dir);
        const pages = (await readdir(dir)).filter((file) => file.endsWith('.html'));
        let islands = 0;
        for (const page of pages) {
          const file = new URL(page, dir);
          const html = await readFile(file, 'utf8');
          const tags = [...new Set(html.match(ISLAND) ?? [])];
          if (tags.length === 0) continue;
          let next = html;
          for (const tag of tags) {
            const graph = new Set<string>();
            for (const [, entry] of tag.matchAll(URL_ATTRIBUTE)) await moduleGraph(assets, entry as string, graph);
            const urls = [...graph].map((module) => `/_astro/${module}`).join(' ');
            next = next.replaceAll(tag, tag.replace('<astro-island', `<astro-island data-preload="${urls}"`));
            islands++;
          }
          await writeFile(file, next);
        }
        logger.info(`Module graphs written on ${islands} islands`);
      },
    },
  };
}
