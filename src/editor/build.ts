import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import { build } from 'esbuild';
import { readLegalTexts } from '../data/content-check.ts';
import type { EditorSettings } from './config.ts';

/**
 * Builds /editor into `outDir` (the site's dist/, or `npm run editor`'s own
 * folder): `editor.html` and `editor/editor.js`, decap-cms bundled from
 * node_modules by esbuild (no CDN; the machine that builds has only the npm
 * registry). Its own bundle: nothing of it is imported by a public page or
 * the admin panel. Decision 0038.
 */

const ENTRY = path.join(import.meta.dirname, 'main.tsx');
const SITE_STYLES = path.join(import.meta.dirname, '../styles/global.css');

/**
 * The previews' stylesheet: the site's own (src/styles/global.css, its
 * colours, type and .btn/.eyebrow) compiled by Tailwind for the classes the
 * previews use, which are the site components' classes.
 */
export async function previewStylesheet(): Promise<string> {
  const compiler = await compile(readFileSync(SITE_STYLES, 'utf8'), {
    base: path.dirname(SITE_STYLES),
    onDependency: () => {},
  });
  const scanner = new Scanner({ sources: [{ base: import.meta.dirname, pattern: 'preview.tsx', negated: false }] });
  return compiler.build(scanner.scan());
}

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
    <link rel="icon" href="data:,">
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
    define: {
      'process.env.NODE_ENV': '"production"',
      global: 'globalThis',
      // The legal pages as they are now: what a data file's save is checked beside.
      EDITOR_LEGAL_TEXTS: JSON.stringify(readLegalTexts()),
    },
    logLevel: 'error',
    legalComments: 'none',
    metafile: true,
  });
  writeFileSync(path.join(outDir, 'editor.html'), editorHtml(settings));
  writeFileSync(path.join(outDir, 'editor', 'preview.css'), await previewStylesheet());
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { bytes };
}
