import os from 'node:os';
import { benchName, type Figure, readSummary, writeSummary } from './summary-file.ts';

export type { Figure } from './summary-file.ts';

// The benchmarks run one after another: each adds its tables and, when it ends (over budget, crashed
// or fine), its exit code, so the closing summary also shows a benchmark that never reached its report.
process.on('exit', (code) => {
  const summary = readSummary();
  summary.exits.push({ bench: benchName(), pid: process.pid, code, at: new Date().toISOString() });
  writeSummary(summary);
});

/** Adds a table to test-results/bench-summary.json without printing it. */
export function record(title: string, figures: readonly Figure[]): void {
  const summary = readSummary();
  summary.runs.push({
    bench: benchName(),
    pid: process.pid,
    title,
    at: new Date().toISOString(),
    load: os.loadavg()[0] ?? 0,
    figures: [...figures],
  });
  writeSummary(summary);
}

/** Prints the table under its title; the exit code becomes non-zero when a figure is over budget (and stays so). */
export function report(title: string, figures: readonly Figure[]): void {
  console.log(`\n${title}\n`);
  console.log('| figure | value | budget | |\n|---|---:|---|---|');
  for (const row of figures)
    console.log(`| ${row.figure} | ${row.value} | ${row.budget} | ${row.pass ? 'ok' : 'OVER'} |`);
  record(title, figures);
  if (!figures.every((row) => row.pass)) process.exitCode = 1;
}
