import { describe, expect, it, vi } from 'vitest';
import { coalesced } from './coalesce.ts';

/** A flush whose end the test decides: records what each flush took. */
function controlledFlush() {
  const flushes: number[][] = [];
  const ends: (() => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const flush = async (items: number[]) => {
    flushes.push(items);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((resolve) => ends.push(resolve));
    running -= 1;
  };
  return { flush, flushes, ends, mostAtOnce: () => mostAtOnce };
}

describe('coalesced flushes (decision 0045)', () => {
  it('items of one moment go in one flush; those handed over during it wait for the next; one flush at a time', async () => {
    const { flush, flushes, ends, mostAtOnce } = controlledFlush();
    const add = coalesced(flush);
    const first = add([1]);
    add([2, 3]);
    await vi.waitFor(() => expect(flushes).toEqual([[1, 2, 3]]));

    // Handed over while the first runs: they wait for it, and go together.
    const second = add([4]);
    add([5]);
    expect(add([6])).toBe(second);
    ends.shift()?.();
    await first;
    await vi.waitFor(() =>
      expect(flushes).toEqual([
        [1, 2, 3],
        [4, 5, 6],
      ]),
    );
    ends.shift()?.();
    await second;
    expect(mostAtOnce()).toBe(1);
  });

  it('with a gap, the next flush starts no sooner than the gap after the one before', async () => {
    // The queue's clock and timers, faked: the gap is checked to the millisecond, whatever else the machine
    // runs (by the real clock, a pause between a flush's start and the test reading the time once made a
    // 40 ms gap look like 39.76 ms).
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    try {
      const starts: number[] = [];
      const add = coalesced<number>(
        async () => {
          starts.push(performance.now());
        },
        { gapMs: 40 },
      );
      const first = add([1]);
      await vi.advanceTimersByTimeAsync(0);
      await first;
      expect(starts).toHaveLength(1);
      const second = add([2]);
      await vi.advanceTimersByTimeAsync(39);
      // setImmediate is the real one: what it would run has run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(starts).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await second;
      expect(starts).toHaveLength(2);
      // A third handed over long after the second: no wait beyond the gap already kept.
      await vi.advanceTimersByTimeAsync(100);
      const third = add([3]);
      await vi.advanceTimersByTimeAsync(0);
      await third;
      expect(starts).toHaveLength(3);
      expect((starts[1] as number) - (starts[0] as number)).toBe(40);
      expect((starts[2] as number) - (starts[1] as number)).toBeGreaterThanOrEqual(40);
    } finally {
      vi.useRealTimers();
    }
  });
});
