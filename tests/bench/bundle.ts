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
 * Issue #40's slot picker (decision 0059) loads only when its dialog shows it (client:visible): it is
 * measured apart (its own files, <= 15 KB) and left out of the first touch. What stays on / and
 * /modelos is the dialog's opener script and Astro's `visible` directive, inline: / 0.19 KB
 * (93.85 -> 94.04), /modelos 0.27 KB (79.3). / moved to 94.3.
 * Issue #43 allows the capture of the ads' click ids up to 1 KB gzip on the public pages: it took
 * 0.1 to 0.2 KB (the page script's gclid/gbraid/wbraid/fbclid, the forms' click id fields):
 * /auth 87.3 -> 87.5, / 94.0 -> 94.2, /modelos 79.3 -> 79.4, /prefiltro 94.0 -> 94.2,
 * /estimacion 94.3 -> 94.5. Each public budget moved by its 0.2 KB (the measure's rounding, 0.1).
 * The voice widget's step-aside (2026-11-29) watches the buttons an island shows after the first paint
 * too (a MutationObserver over main): about 0.05 KB on every page with the widget, which took /prefiltro
 * past its 94.2 by the measure's rounding. /prefiltro moved to 94.3.
 * /admin had grown to 127.2 KB with issues #40 to #43 (the calendar's attendance, payments, campaigns).
 * Back to 122.2 without a feature lost: the team's pages run a page script of their own
 * (src/scripts/panel.ts: no visit attribution, outbox or voice; /admin -1.4 KB, /auth 87.5 -> 86.0),
 * "Prospectos" loads when opened like the other views but Hoy (-2.4), and the navigation's unread count
 * and Hoy's contact actions no longer bring the conversations' and the contact page's queries (-1.2).
 * 2026-12-01, thirteenth session (measured at 0359b38 and after, same machine, two decimals): a form pressed
 * before its island loaded and whose code never comes now says so after 6 s (the page scripts' timer and
 * words, decision 0090): +0.11 KB on every public page (/prefiltro 94.29 -> 94.40, /estimacion 94.59 ->
 * 94.70, / 94.31 -> 94.42) and /auth; /admin 122.34 -> 122.86 with it, the attendance buttons that appear at
 * the appointment's start, an outcome's warning of a visit still booked and the time off's. /prefiltro moved to
 * 94.4, /estimacion to 94.8, /admin to 122.9.
 * 2026-12-01, fourteenth session: /admin 122.86 -> 123.0 with the review's fixes (an adviser told to let the
 * member of a visit know rather than cancel it, the opposition's three texts, the composer's error in place),
 * then 123.1 with the panel's "Reprogramar" (its button and dialog shell; the form and the slot picker load
 * on the first press). /admin moved to 123.2.
 */
const BUDGET_KB: Record<string, number> = {
  'admin.html': 123.2,
  'auth.html': 87.7,
  'index.html': 94.5,
  'modelos.html': 79.7,
  'prefiltro.html': 94.4,
  'estimacion.html': 94.8,
};

const gzipKb = (bytes: Buffer | string): number => gzipSync(bytes, { level: 9 }).length / 1024;

/** An island's module graph (data-preload), and whether it loads only when shown (client:visible). */
function islands(html: string): { graph: string[]; whenShown: boolean; component: string }[] {
  return [...html.matchAll(/<astro-island\b[^>]*>/g)].map(([tag]) => ({
    graph: (/\sdata-preload="([^"]*)"/.exec(tag)?.[1] ?? '').split(/\s+/).filter(Boolean),
    whenShown: /\sclient="visible"/.test(tag),
    component: /\scomponent-url="([^"]+)"/.exec(tag)?.[1] ?? '',
  }));
}

/**
 * The scripts a page runs at its first touch: its islands' graphs and its
 * script files, without the islands that load only when shown (the slot
 * picker in its closed dialog, issue #40), and its inline scripts.
 */
function pageScripts(file: string): { files: string[]; inlineKb: number } {
  const html = readFileSync(path.join(DIST, file), 'utf8');
  const files = new Set<string>();
  for (const island of islands(html)) if (!island.whenShown) for (const url of island.graph) files.add(url);
  for (const [, url] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) if (url) files.add(url);
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, body]) => body ?? '');
  return { files: [...files], inlineKb: gzipKb(inline.join('')) };
}

/**
 * What the slot picker's island (issue #40, decision 0059) adds to /modelos
 * when its dialog opens: its graph less the files the page's other islands
 * load anyway (React and its renderer). Budget: 15 KB gzip.
 */
const PICKER_BUDGET_KB = 15;
function pickerKb(): { files: number; kb: number } {
  const html = readFileSync(path.join(DIST, 'modelos.html'), 'utf8');
  const all = islands(html);
  const picker = all.find((island) => /\/BookingPicker\.[\w-]+\.js$/.test(island.component));
  if (!picker) throw new Error('modelos.html has no BookingPicker island');
  const shared = new Set(all.filter((island) => island !== picker).flatMap((island) => island.graph));
  const own = picker.graph.filter((url) => !shared.has(url));
  return { files: own.length, kb: own.reduce((sum, url) => sum + gzipKb(readFileSync(path.join(DIST, url))), 0) };
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

const picker = pickerKb();
figures.push({
  figure: `the slot picker's island, beyond what /modelos loads anyway (${picker.files} files), gzip`,
  value: `${picker.kb.toFixed(1)} KB`,
  budget: `<= ${PICKER_BUDGET_KB} KB`,
  pass: picker.kb <= PICKER_BUDGET_KB,
});

report('Page scripts (gzip, from dist/)', figures);
