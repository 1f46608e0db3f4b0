import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/server/local/lifetime.ts';
import { processesWithEnv } from '../support/processes.ts';

/** Issue #16: every process the tests start ends when the tests end, whatever happens. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/lifetime');
const MARKER = 'CASAS_LIFETIME_MARKER';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done` holds or `ms` passes; returns whether it held. */
async function eventually(done: () => boolean, ms = 15_000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 200) {
    if (done()) return true;
    await sleep(200);
  }
  return done();
}

function run(
  args: string[],
  marker: string,
): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, [MARKER]: marker, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function firstLine(started: ReturnType<typeof run>): Promise<Record<string, unknown>> {
  expect(await eventually(() => /^\{.*\}$/m.test(started.output()), 40_000), started.output()).toBe(true);
  return JSON.parse(/^\{.*\}$/m.exec(started.output())?.[0] ?? '{}');
}

const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
/**
 * The bound of a test that runs Vitest of its own: three servers started and a run's start and end, which
 * took 90 s (the suite's bound) on a fresh clone beside a second `npm test`; above the fixture run's own
 * hook bound (120 s). A bound for a hang, never a measure of speed.
 */
const NESTED_RUN_MS = 240_000;
const fixtureRun = (marker: string, files: string[]) =>
  run([vitest, 'run', '--config', path.join(FIXTURES, 'vitest.config.ts'), ...files], marker);

describe('nothing outlives the tests', () => {
  it('a local server exits when the process that started it is killed', async () => {
    const marker = randomUUID();
    const parent = run([path.join(FIXTURES, 'spawn-and-wait.ts')], marker);
    const { pid } = (await firstLine(parent)) as { pid: number };
    expect(isAlive(pid)).toBe(true);

    parent.child.kill('SIGKILL');
    await parent.exited;
    expect(await eventually(() => !isAlive(pid))).toBe(true);
    expect(processesWithEnv(MARKER, marker)).toEqual([]);
  });

  it('an embedded PostgreSQL stops, and its data goes, when its owner is killed', async () => {
    const marker = randomUUID();
    const parent = run([path.join(FIXTURES, 'spawn-and-wait.ts'), 'postgres'], marker);
    const { dataDir } = (await firstLine(parent)) as { dataDir: string };
    const postmasterPid = path.join(dataDir, 'postmaster.pid');
    expect(existsSync(postmasterPid)).toBe(true);

    parent.child.kill('SIGKILL');
    await parent.exited;
    expect(await eventually(() => !existsSync(dataDir))).toBe(true);
    // The watchdog removes the data directory, then exits itself: wait for that too.
    expect(await eventually(() => processesWithEnv(MARKER, marker).length === 0)).toBe(true);
  });

  it(
    'a Vitest run whose files pass, fail and time out leaves no server running',
    async () => {
      const marker = randomUUID();
      const started = fixtureRun(marker, []);
      const code = await started.exited;
      expect(code, started.output()).toBe(1); // one file fails and one times out, on purpose
      expect(started.output()).toMatch(/1 passed/);
      expect(await eventually(() => processesWithEnv(MARKER, marker).length === 0)).toBe(true);
    },
    NESTED_RUN_MS,
  );

  it(
    'an interrupted Vitest run (Ctrl+C) leaves no server running',
    async () => {
      const marker = randomUUID();
      const started = fixtureRun(marker, ['times-out.fixture.ts']);
      expect(await eventually(() => started.output().includes('LIFETIME_FIXTURE_SERVER_STARTED'), 150_000)).toBe(true);
      expect(processesWithEnv(MARKER, marker).some(({ command }) => command.includes('serve.ts'))).toBe(true);

      started.child.kill('SIGINT');
      await started.exited;
      expect(await eventually(() => processesWithEnv(MARKER, marker).length === 0)).toBe(true);
    },
    NESTED_RUN_MS,
  );
});
