import type { Figure } from './report.ts';

/** The `p`-th percentile of `values` (nearest rank). */
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] as number;

/** Runs `request(i)` for i = 0…count-1, `concurrency` at a time, after one warm-up (i = count); the p95 in ms. */
export async function loadP95(
  count: number,
  concurrency: number,
  request: (i: number) => Promise<void>,
): Promise<number> {
  await request(count);
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const started = performance.now();
        await request(i);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return percentile(latencies, 95);
}

/** A p95 latency as a budgeted figure of report(). */
export const latencyFigure = (
  figure: string,
  count: number,
  concurrency: number,
  p95: number,
  budgetMs: number,
): Figure => ({
  figure: `${figure} p95 (${count} requests, ${concurrency} at a time)`,
  value: `${p95.toFixed(1)} ms`,
  budget: `<= ${budgetMs} ms`,
  pass: p95 <= budgetMs,
});
