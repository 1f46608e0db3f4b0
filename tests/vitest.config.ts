import { defineConfig } from 'vitest/config';
import LongestFirst from './setup/sequencer.ts';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: [
      'src/**/*.test.ts',
      'src/components/**/*.test.tsx',
      'db/**/*.test.ts',
      'tests/api/**/*.test.ts',
      'tests/netlify/**/*.test.ts',
      'tests/lint/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/postgres-cluster.ts'],
    // fresh-modules.ts first: it empties the module registry, so the next ones import our modules anew.
    setupFiles: [
      'tests/setup/fresh-modules.ts',
      'tests/setup/test-database.ts',
      'tests/setup/stop-servers.ts',
      'tests/setup/testing-library.ts',
    ],
    // Three files at a time: Vitest's default on a 2-core machine is one (cores - 1), and most files
    // wait on PostgreSQL, spawned servers and sockets rather than on the CPU (issue #25: under 15 min;
    // with two, the whole suite used 1.15 of its 2 cores).
    maxWorkers: 3,
    pool: 'threads',
    // One thread runs many files: the thread, Vitest's runtime and node_modules' packages are loaded once
    // per worker, not once per file (127 files); our own modules are still evaluated anew for every file
    // (tests/setup/fresh-modules.ts). Decision 0077.
    isolate: false,
    // The files that take minutes first, whatever Vitest knows of the last run (tests/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // Bounds for a test that would hang, never a measure of speed: a passing test ends when its state
    // is reached, and a second `npm test` on the same machine (CI's is shared) can triple the time.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll's bound (Vitest's own is 1 s): it passes as soon as its value holds.
    expect: { poll: { timeout: 60_000 } },
    env: { NODE_ENV: 'test', JWT_SECRET: 'vitest-only-secret-of-at-least-32-bytes!' },
  },
});
