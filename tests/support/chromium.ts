import { existsSync } from 'node:fs';

/** Debian's Chromium, as the benchmarks (Lighthouse among them) and the scripts launch it (no downloads here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser of the Playwright stories: Debian's old headless shell (package chromium-headless-shell, the
 * same Chromium without the full browser's window machinery, what Playwright itself runs headless by
 * default), which did the same 71 stories with 37% less CPU than the full browser (decision 0066); the full
 * browser where the shell is not installed. CHROMIUM_PATH, when set, wins.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const STORIES_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Flags for a closed network: without the background ones Chromium keeps calling home. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
