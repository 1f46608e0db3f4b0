/**
 * Items handed over while a flush is running wait and go together in the
 * next one: at most one flush in flight, each taking everything that arrived
 * since the one before (after one tick, so items of the same moment go
 * together), and flushes at least `gapMs` apart. Used for the jobs added or
 * woken after an answer: each flush is a transaction that NOTIFYs, such
 * transactions commit one at a time in PostgreSQL, and each NOTIFY sets every
 * idle runner looking for work (decision 0045).
 *
 * The returned function resolves when the flush that took its items has
 * ended; `flush` must not throw (what it fails to do is the queue's upkeep's).
 */
export function coalesced<T>(
  flush: (items: T[]) => Promise<void>,
  { gapMs = 0 }: { gapMs?: number } = {},
): (items: readonly T[]) => Promise<void> {
  let waiting: T[] = [];
  let next: Promise<void> | null = null;
  let previous: Promise<void> = Promise.resolve();
  let lastStart = Number.NEGATIVE_INFINITY;
  const pause = async () => {
    // A timer may fire a little before its time by this clock: wait again until the gap has passed.
    for (let wait = lastStart + gapMs - performance.now(); wait > 0; wait = lastStart + gapMs - performance.now()) {
      await new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return (items) => {
    waiting.push(...items);
    if (next === null) {
      next = previous.then(pause).then(() => {
        const batch = waiting;
        waiting = [];
        next = null;
        lastStart = performance.now();
        return flush(batch);
      });
      previous = next;
    }
    return next;
  };
}
