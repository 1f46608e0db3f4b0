import { describe, expect, it } from 'vitest';
import { until } from '../../../tests/support/until.ts';
import { limited } from './jobs.ts';

/** A piece of work that runs until released, recording when it started. */
function gate(started: number[], index: number) {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const work = () => {
    started.push(index);
    return done;
  };
  return { release: () => release(), work };
}

describe('limited (the processing of WhatsApp deliveries)', () => {
  it('runs at most `slots()` at once, in the order asked, and at least one even when it says none', async () => {
    let slots = 2;
    const run = limited(() => slots);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, (_, index) => gate(started, index));
    const all = gates.map((each) => run(each.work));
    await until(() => started.length === 2, '2 pieces of work started');
    expect(started).toEqual([0, 1]);
    // The webhook is busy: one slot. Two running stay; the next waits for both to end.
    slots = 1;
    gates[0]?.release();
    await all[0]; // ended, and the limiter asked again
    expect(started).toEqual([0, 1]);
    gates[1]?.release();
    await until(() => started.length === 3, '3 pieces of work started');
    // None allowed: one still runs, so nothing waits for ever.
    slots = 0;
    gates[2]?.release();
    await until(() => started.length === 4, '4 pieces of work started');
    // Quiet again: the rest start without waiting for one to end.
    slots = 2;
    await until(() => started.length === 5, '5 pieces of work started');
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const each of gates) each.release();
    await Promise.all(all);
  });
});
