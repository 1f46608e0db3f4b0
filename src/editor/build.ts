import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { EditorSettings } from './config.ts';

/**
 * Builds /editor into `outDir` (the site's dist/, or `npm run editor`'s own
 * folder): `editor.html` and `editor/editor.js`, decap-cms bundled from
 * node_modules by esbuild (no CDN; the machine that builds has only the npm
 * registry). Its own bundle: nothing of it is imported by a public page or
 * the admin panel. Decision 0038.
 */

const ENTRY = path.join(import.meta.dirname, 'main.tsx');

/** The editor's page; the settings go as data (script-src allows only our files). */
export function editorHtml(settings: EditorSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="es-MX">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex">
    <title>Editor de contenido</title>
    <script id="editor-settings" type="application/json">${json}</script>
  </head>
  <body>
    <script type="module" src="/editor/editor.js"></script>
  </body>
</html>
`;
}

export async function buildEditor(outDir: string, settings: EditorSettings): Promise<{ bytes: number }> {
  mkdirSync(path.join(outDir, 'editor'), { recursive: true });
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    outfile: path.join(outDir, 'editor', 'editor.js'),
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    logLevel: 'error',
    legalComments: 'none',
    metafile: true,
  });
  writeFileSync(path.join(outDir, 'editor.html'), editorHtml(settings));
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { bytes };
}
