import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build, type Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:near-screen/';

/**
 * A module that a page loads only when its element comes near the screen
 * (the page script's `data-near-screen`, src/lib/client/near-screen.ts), with
 * no script request in the page itself: `import { url } from
 * 'virtual:near-screen/<name>'` gives the address to write on the element.
 * The build bundles the module with esbuild into one fingerprinted file of
 * `_astro/` (its `?inline` stylesheets as text); `astro dev` serves the source
 * through Vite. A `<script>` in a component would be a request of the first
 * screen, counted by Lighthouse in /modelos's LCP (decision 0031).
 */
export function nearScreenModules(entries: Record<string, string>): AstroIntegration {
  const built = new Map<string, { fileName: string; code: string }>();
  return {
    name: 'near-screen-modules',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        const root = fileURLToPath(config.root);
        updateConfig({ vite: { plugins: [nearScreenPlugin(root, entries, built)] } });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const out = path.join(fileURLToPath(dir), '_astro');
        await mkdir(out, { recursive: true });
        for (const { fileName, code } of built.values()) await writeFile(path.join(out, fileName), code);
        logger.info(`Wrote ${[...built.values()].map((file) => file.fileName).join(', ')}`);
      },
    },
  };
}

/** `import css from 'x.css?inline'`: the stylesheet as a string, as Vite gives it. */
const inlineCss: EsbuildPlugin = {
  name: 'inline-css',
  setup(build) {
    build.onResolve({ filter: /\?inline$/ }, async (args) => {
      const resolved = await build.resolve(args.path.slice(0, -'?inline'.length), {
        kind: args.kind,
        resolveDir: args.resolveDir,
      });
      return { path: resolved.path, namespace: 'inline-css' };
    });
    build.onLoad({ filter: /.*/, namespace: 'inline-css' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

function nearScreenPlugin(
  root: string,
  entries: Record<string, string>,
  built: Map<string, { fileName: string; code: string }>,
): Plugin {
  let serve = false;
  return {
    name: 'near-screen-modules',
    configResolved: (config) => {
      serve = config.command === 'serve';
    },
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    async load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const name = id.slice(`\0${PREFIX}`.length);
      const entry = entries[name];
      if (!entry) throw new Error(`near-screen module "${name}" is not declared in astro.config.mjs`);
      if (serve) return `export const url = ${JSON.stringify(`/${entry}`)};\n`;
      let file = built.get(name);
      if (!file) {
        const result = await build({
          entryPoints: [path.join(root, entry)],
          absWorkingDir: root,
          bundle: true,
          format: 'esm',
          minify: true,
          target: 'es2022',
          write: false,
          logLevel: 'silent',
          plugins: [inlineCss],
        });
        const code = result.outputFiles[0]?.text ?? '';
        const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
        file = { fileName: `${name}.${hash}.js`, code };
        built.set(name, file);
      }
      return `export const url = ${JSON.stringify(`/_astro/${file.fileName}`)};\n`;
    },
  };
}
