import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

const MODULE_ID = 'virtual:page-script';
const RESOLVED_ID = `\0${MODULE_ID}`;

/**
 * The script every page runs (`src/scripts/site.ts`), bundled into one
 * self-contained classic script that the layout writes inline, the way Astro
 * builds its own client directives (decision 0023). A file of its own, with
 * its imports shared with the islands, costs a phone two round trips before
 * the first paint; inline it costs none. `virtual:page-script` gives the
 * layout the code and its CSP hash.
 */
export function pageScript(entry = 'src/scripts/site.ts'): AstroIntegration {
  return {
    name: 'page-script',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        const root = fileURLToPath(config.root);
        updateConfig({ vite: { plugins: [pageScriptPlugin(root, path.join(root, entry))] } });
      },
    },
  };
}

function pageScriptPlugin(root: string, entry: string): Plugin {
  return {
    name: 'page-script',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const result = await build({
        entryPoints: [entry],
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
