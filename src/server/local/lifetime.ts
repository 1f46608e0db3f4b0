/**
 * A process started for someone else (a test run, a benchmark) must not
 * outlive it. When its parent dies, however it died (a failed or timed-out
 * test file, a worker that Vitest ends, Ctrl+C, SIGKILL), the operating
 * system gives the orphan a new parent: that change is what we watch. Pass
 * the parent read when the process started: one that died during start-up
 * is noticed too.
 */
export function onParentExit(stop: () => void, parent = process.ppid, intervalMs = 500): void {
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, intervalMs);
  timer.unref();
}

// Where the tests and the local server look for it; the database's watchdog imports it directly.
export { isAlive } from '../process-alive.ts';
