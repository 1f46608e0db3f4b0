import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type Page, type PageScreenshotOptions } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';
import pg from 'pg';
import { E2E_DATABASE_URL } from './playwright.config.ts';

interface Fixtures {
  /** Runs SQL on the e2e server's database, to see what a flow stored. */
  sql<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Console errors of the page; a test fails when one appears that it did not expect. */
  consoleErrors: string[];
}

export const test = base.extend<Fixtures>({
  sql: async ({ browserName: _browser }, use) => {
    const pool = new pg.Pool({ connectionString: E2E_DATABASE_URL, max: 2 });
    await use(async (text, values = []) => (await pool.query(text, values)).rows);
    await pool.end();
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** A name no other test uses, to find this test's row. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 10)}`;
}

/** A unique person's name of letters only: one with digits is no name in our words (src/lib/person-name.ts). */
export function uniquePersonName(prefix: string): string {
  const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26)));
  return `${prefix} ${letters.join('')}`;
}

/** The toast with this title (status or alert region). */
export function toast(page: Page, title: string) {
  return page.locator('.toast').filter({ has: page.locator('.toast-title', { hasText: title }) });
}

/**
 * The page once loaded and past its first idle moments, where the islands' prefetch starts (after the load
 * event, when the browser is idle): what a "nothing requested until the visitor acts" check looks at. Not the
 * network's quiet ('networkidle'): on CI's busy machine the landing's network did not stay quiet for 500 ms
 * within a story's 90 s, and site.spec's video story failed so. The page's own idle callbacks, queued at its
 * load event, run before these two.
 */
/**
 * Every toast the page's documents show, as text, kept from now on: a toast lives 5 s, and a story checked on
 * a busy machine (two suites at once) may look for one after it is gone. Read it with `expect.poll`.
 */
export async function keptToasts(page: Page): Promise<() => Promise<string>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { keptToasts: seen });
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes))
          if (node instanceof HTMLElement && node.classList.contains('toast')) seen.push(node.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => ((window as unknown as { keptToasts?: string[] }).keptToasts ?? []).join('\n'));
}

export async function pastFirstIdle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 10_000 }), { timeout: 10_000 }),
      ),
  );
}

/**
 * A picture of the page for people to look at (the 390 px and 1280 px views of a change, the guides' images),
 * never a check: taken only when SCREENSHOTS is set (`SCREENSHOTS=1 npm run test:e2e -- <spec>`; the editor's
 * story also with EDITOR_SCREENSHOTS, which writes the marketing guide's images). A full-page picture of a
 * long page at 1280 px costs the browser about 2.5 s of CPU, and without them the stories that take most
 * pictures used 12 % less CPU (decision 0078). A failing story keeps its screenshot either way
 * (playwright.config.ts).
 */
export async function picture(page: Page, options: PageScreenshotOptions): Promise<void> {
  if (process.env.SCREENSHOTS || process.env.EDITOR_SCREENSHOTS) await page.screenshot(options);
}

/** Waits until the island in `scope` has hydrated (its form says so). */
export async function waitForForm(page: Page, formLabel: string) {
  await expect(page.getByRole('form', { name: formLabel })).toHaveAttribute('data-enhanced', 'ready');
}

/**
 * axe-core's findings on the page as `rule: targets` lines: WCAG 2.1 A/AA and
 * WCAG 2.2 AA (target size, 2.5.8, among them), best practices, and axe's experimental rules (label in name, WCAG 2.5.3, among them).
 * `within`: a selector, to check one part of a page whose rest moves under it.
 */
export async function accessibilityViolations(page: Page, within?: string): Promise<string[]> {
  const results = await runAxe(page, within, {
    type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'],
  });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`,
  );
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core run in the page over `within` (a selector; the whole document without it), with the rules of
 * `runOnly`. axe is put in each document once, through the protocol's evaluate as @axe-core/playwright does
 * (the pages' CSP does not stop it), and kept there for the document's next checks: AxeBuilder puts its
 * 570 KB in again at every call, a large part of the browser suite's time. The site has no frames to visit.
 */
export async function runAxe(
  page: Page,
  within: string | undefined,
  runOnly: RunOptions['runOnly'],
): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ([selector, only]) => {
      // Colours are judged once what is fading in has arrived (a toast half faded in is not what a person
      // reads): the running animations and transitions of the clock that end (not a scroll-driven one, not an
      // endless one), waited for three seconds at most.
      const ending = document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState === 'running' &&
            animation.timeline instanceof DocumentTimeline &&
            Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)),
        );
      await Promise.race([
        Promise.all(ending.map((animation) => animation.finished.catch(() => undefined))),
        new Promise((resolve) => setTimeout(resolve, 3_000)),
      ]);
      const { axe } = window as unknown as {
        axe: { run(context: unknown, options: RunOptions): Promise<AxeResults> };
      };
      return axe.run(selector ? { include: [[selector]] } : document, { runOnly: only, resultTypes: ['violations'] });
    },
    [within, runOnly] as const,
  );
}
