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

/** Whether a process is still running (signal 0 checks without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
