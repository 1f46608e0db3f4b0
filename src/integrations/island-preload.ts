import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { filesUnder } from './build-files.ts';

/** A static import or re-export of a sibling chunk in the build's minified output (not `import(…)`). */
export const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g;
const ISLAND = /<astro-island\b[^>]*>/g;

/**
 * Writes on every island the whole static module graph it will load, as
 * `data-preload`, so that `client:interaction` asks for all of it at the
 * first touch, in one round trip, instead of discovering it import by import
 * (decision 0023). Nothing is fetched before the touch. The renderer comes
 * first: the largest file, it starts at once on a browser's few connections
 * and runs while the island's own modules arrive.
 */
export function islandPreload(): AstroIntegration {
  return {
    name: 'island-preload',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const graph = new Map<string, string[]>();
        const imports = async (url: string): Promise<string[]> => {
          const cached = graph.get(url);
          if (cached) return cached;
          const code = await readFile(path.join(root, url), 'utf8');
          const base = url.slice(0, url.lastIndexOf('/') + 1);
          const direct = [...code.matchAll(STATIC_IMPORT)].map((match) => base + match[1]);
          graph.set(url, direct);
          return direct;
        };
        const closure = async (entries: string[]): Promise<string[]> => {
          const seen = new Set<string>();
          const visit = async (url: string) => {
            if (seen.has(url)) return;
            seen.add(url);
            for (const next of await imports(url)) await visit(next);
          };
          for (const entry of entries) await visit(entry);
          return [...seen];
        };

        let islands = 0;
        for (const file of (await filesUnder(root)).filter((name) => name.endsWith('.html'))) {
          const html = await readFile(file, 'utf8');
          let result = html;
          for (const [tag] of html.matchAll(ISLAND)) {
            const entries = ['renderer-url', 'component-url']
              .map((name) => tag.match(new RegExp(`\\s${name}="(/[^"]+\\.js)"`))?.[1])
              .filter((url): url is string => url !== undefined);
            if (entries.length === 0 || tag.includes(' data-preload=')) continue;
            const urls = await closure(entries);
            result = result.replace(tag, `${tag.slice(0, -1)} data-preload="${urls.join(' ')}">`);
            islands++;
          }
          if (result !== html) await writeFile(file, result);
        }
        logger.info(`Wrote the module graph of ${islands} islands`);
      },
    },
  };
}
