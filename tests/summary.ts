/** Prints one closing line for the whole suite, from the reports of Vitest and Playwright. */
import { readFile } from 'node:fs/promises';

const vitest = JSON.parse(await readFile('test-results/vitest.json', 'utf8'));
const playwright = JSON.parse(await readFile('test-results/playwright.json', 'utf8'));

const passed = vitest.numPassedTests + playwright.stats.expected;
const failed = vitest.numFailedTests + playwright.stats.unexpected + playwright.stats.flaky;
const skipped = vitest.numPendingTests + vitest.numTodoTests + playwright.stats.skipped;

console.log(`\nVitest: ${vitest.numPassedTests} passed; Playwright: ${playwright.stats.expected} passed`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
