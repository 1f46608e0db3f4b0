/**
 * Waits until `check` holds: the one way a test waits for the effect of
 * background work (a job, an e-mail, a webhook), whatever order that work
 * runs in and however busy the machine is. The timeout only bounds a test
 * that would otherwise hang: it never decides a result that passes.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `until` for a value the test then asserts on: reads it until `done` holds of it, and returns it. A
 * timeout's error names the last value read and, with `context`, what else helps (the server's log).
 */
export async function untilValue<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = 60_000, context }: { timeoutMs?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}${context ? `\n${context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
