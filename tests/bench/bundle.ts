/**
 * `npm run bench:bundle`: the JavaScript each built page loads, gzip-compressed,
 * read from `dist/` (run `npm run build` first). A page's islands name their
 * whole module graph in `data-preload`; inline scripts count too. Budgets:
 * the panel's graph (issue #24: no more than the data library costs on top of
 * what it was before the back office's redesign) and the public pages' (no
 * island code before interaction beyond what they had).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { report } from './report.ts';

const DIST = path.resolve(import.meta.dirname, '../../dist');
if (!existsSync(DIST)) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}

const PAGES = ['admin.html', 'auth.html', 'index.html', 'modelos.html', 'prefiltro.html', 'estimacion.html'];

/**
 * Before issue #24 (2026-11-24, this script on `npm run build:test`'s dist, where the voice widget is
 * configured; a build without the voice keys loads less): /admin 106.1 KB, /auth 85.2, / 91.9, /modelos 79.1,
 * /prefiltro 92.1, /estimacion 92.4. The panel may grow by what TanStack Query costs (about 13 KB
 * gzip); the public pages' islands may not grow beyond rounding.
 * Issue #25's outbox (a hang treated as a lost connection, what is retried, no silent drop,
 * the consent of the press) and the inline script that resends it cost about 1.5 KB on the
 * form pages and 0.9 KB on /auth (measured: /auth 86.7, / 93.5, /prefiltro 93.7, /estimacion 94.0);
 * /modelos lost its gallery file from the first touch (78.9). The budgets moved by that much.
 * Issue #26, items 4, 5 and 8 (decision 0037): "Tomar" on every card, the list's selection,
 * "Nuevo prospecto" and the sign-in dialog that keeps a change whose session ended cost 3.3 KB on
 * /admin (118.7 -> 122.0) and 0.3 KB on /auth (the fetcher's wait for the dialog: 86.7 -> 87.0),
 * with the forms of the dialogs and the action bar loaded only when opened; the public pages
 * unchanged (the list's schema stays out of the zod chunk they share). /admin moved by that much.
 * Issue #26's day (the outcome buttons and their sheet on every card and contact, the next
 * contact in Mérida's time, the reminders' badge and "Activar avisos") costs /admin 3.4 KB
 * (measured on the same machine: 118.7 before, 122.1 after); the public pages did not move.
 * After the three #26 branches were merged: /admin 119.7 KB (the views other than Hoy and Prospectos
 * load when opened), /auth 87.1 KB (the shared fetcher that waits for the sign-in dialog, and the
 * phone's formatting): /auth moved to 87.5.
 * Issue #26's pipeline ("Embudo", decision 0041): /admin 119.7 -> 120.3 KB (the deal's fields and
 * messages in the contact change's schema, the tab and its lazy import); the view, its dialog and the
 * catalogue's prices load when the tab is opened. Budget unchanged.
 */
const BUDGET_KB: Record<string, number> = {
  'admin.html': 122.5,
  'auth.html': 87.5,
  'index.html': 94,
  'modelos.html': 79.5,
  'prefiltro.html': 94,
  'estimacion.html': 94.5,
};

const gzipKb = (bytes: Buffer | string): number => gzipSync(bytes, { level: 9 }).length / 1024;

function pageScripts(file: string): { files: string[]; inlineKb: number } {
  const html = readFileSync(path.join(DIST, file), 'utf8');
  const files = new Set<string>();
  for (const [, list] of html.matchAll(/data-preload="([^"]*)"/g)) {
    for (const url of (list ?? '').split(/\s+/).filter(Boolean)) files.add(url);
  }
  for (const [, url] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) if (url) files.add(url);
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => body ?? '');
  return { files: [...files], inlineKb: gzipKb(inline.join('')) };
}

const figures = PAGES.map((page) => {
  const { files, inlineKb } = pageScripts(page);
  const islandKb = files.reduce((sum, url) => sum + gzipKb(readFileSync(path.join(DIST, url))), 0);
  const total = islandKb + inlineKb;
  const budget = BUDGET_KB[page] ?? 0;
  return {
    figure: `/${page.replace(/(index)?\.html$/, '')} JavaScript at its first touch (${files.length} files + inline), gzip`,
    value: `${total.toFixed(1)} KB`,
    budget: `<= ${budget} KB`,
    pass: total <= budget,
  };
});

report('Page scripts (gzip, from dist/)', figures);
