/**
 * `npm test`: Biome, the build, Vitest, then Playwright with `astro check`
 * beside it, then the counts (tests/summary.ts). A failing step stops the run
 * with its own report; `astro check`'s report is printed when Playwright ends.
 *
 * Why `astro check` runs beside the browser suite: it takes one core for a
 * minute or more and waits on nothing else, while the browser suite leaves
 * part of the machine idle (it waits on the server, PostgreSQL and paint).
 * It runs with `--noSync` after the build, which wrote `.astro/` already;
 * nothing writes there while Playwright runs (the content editor's story
 * builds a copy of the project, with its own `.astro/`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

// Node's compile cache for every process the run starts (the 80-odd servers the API tests spawn, the
// harnesses, the e2e server): V8's compiled code kept on disk, keyed by each file's content, so a server's
// start costs about 1.0 s of CPU instead of 1.8 (measured). Under node_modules/.cache: never committed.
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, '../node_modules/.cache/node-compile');

interface Finished {
  code: number;
  output: string;
}

/** Runs `npm run <script>`; its output goes to this terminal, or is kept and returned when `quiet`. */
function npmRun(script: string, args: string[] = [], quiet = false): Promise<Finished> {
  const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })),
  );
}

async function step(script: string): Promise<void> {
  console.log(`\n> npm run ${script}`);
  const { code } = await npmRun(script);
  if (code !== 0) {
    console.error(`\nnpm test: ${script} failed (exit ${code}).`);
    process.exit(code);
  }
}

await step('lint');
await step('build:test');
await step('test:unit');
console.log('\n> npm run check -- --noSync (beside the browser suite; its report follows it)');
const check = npmRun('check', ['--noSync'], true);
console.log('\n> npm run test:e2e');
const e2e = await npmRun('test:e2e');
const checked = await check;
console.log(`\n> npm run check -- --noSync\n${checked.output}`);
if (checked.code !== 0) console.error(`\nnpm test: check failed (exit ${checked.code}).`);
if (e2e.code !== 0) console.error(`\nnpm test: test:e2e failed (exit ${e2e.code}).`);
if (checked.code !== 0 || e2e.code !== 0) process.exit(1);
// The counts, from the reports of Vitest and Playwright.
const summary = spawn(process.execPath, ['tests/summary.ts'], { stdio: 'inherit' });
summary.once('close', (code) => process.exit(code ?? 1));
