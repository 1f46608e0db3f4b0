import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/** The page scripts, by virtual module: the public pages', and the team's pages' (the layout's `bare`). */
const ENTRIES: Record<string, string> = {
  'virtual:page-script': 'src/scripts/site.ts',
  'virtual:page-script/panel': 'src/scripts/panel.ts',
};

/**
 * The script every page runs (`src/scripts/site.ts`), bundled into one
 * self-contained classic script that the layout writes inline, the way Astro
 * builds its own client directives (decision 0023). A file of its own, with
 * its imports shared with the islands, costs a phone two round trips before
 * the first paint; inline it costs none. `virtual:page-script` gives the
 * layout the code and its CSP hash; `virtual:page-script/panel` the team's
 * pages' (`src/scripts/panel.ts`).
 */
export function pageScript(): AstroIntegration {
  return {
    name: 'page-script',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        updateConfig({ vite: { plugins: [pageScriptPlugin(fileURLToPath(config.root))] } });
      },
    },
  };
}

function pageScriptPlugin(root: string): Plugin {
  return {
    name: 'page-script',
    resolveId: (id) => (id in ENTRIES ? `\0${id}` : undefined),
    async load(id) {
      const entry = id.startsWith('\0') ? ENTRIES[id.slice(1)] : undefined;
      if (!entry) return undefined;
      const result = await build({
        entryPoints: [path.join(root, entry)],
        absWorkingDir: root,
        bundle: true,
        format: 'iife',
        minify: true,
        target: 'es2022',
        metafile: true,
        write: false,
        logLevel: 'silent',
      });
      // `astro dev` rebuilds it when any of its sources changes.
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(path.resolve(root, input));
      const code = (result.outputFiles[0]?.text ?? '').trim();
      const hash = `sha256-${createHash('sha256').update(code).digest('base64')}`;
      return `export const code = ${JSON.stringify(code)};\nexport const hash = ${JSON.stringify(hash)};\n`;
    },
  };
}
