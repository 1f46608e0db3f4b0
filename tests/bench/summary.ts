/**
 * The first and last step of `npm run bench`. `--start` empties
 * test-results/bench-summary.json; without it, prints one table of every
 * budgeted figure the benchmarks wrote there since (tests/bench/report.ts),
 * each with its verdict, and exits 1 when a figure is over its budget or a
 * benchmark of `npm run bench` ended without its figures or with an error.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type BenchSummary, readSummary, SUMMARY_FILE, writeSummary } from './summary-file.ts';

/** The benchmarks `npm run bench` runs, in its order, read from package.json. */
export function expectedBenches(): string[] {
  const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return [...(manifest.scripts.bench ?? '').matchAll(/npm run (bench:[a-z-]+)/g)].map(([, name]) => name as string);
}

interface Row {
  bench: string;
  figure: string;
  value: string;
  budget: string;
  verdict: 'ok' | 'OVER' | '—';
}

export function summaryRows(summary: BenchSummary, expected: readonly string[]): Row[] {
  const seen = [...new Set([...summary.runs.map((run) => run.bench), ...summary.exits.map((exit) => exit.bench)])];
  const benches = [...expected, ...seen.filter((bench) => !expected.includes(bench))];
  const rows: Row[] = [];
  for (const bench of benches) {
    const exit = summary.exits.findLast((each) => each.bench === bench);
    // The last run of the benchmark: the process that wrote its last table (or that ended last, without one).
    const last = exit?.pid ?? summary.runs.findLast((run) => run.bench === bench)?.pid;
    const runs = summary.runs.filter((run) => run.bench === bench && run.pid === last);
    const label = runs.length ? `${bench} (load ${runs[0]?.load.toFixed(1)})` : bench;
    const figures = runs.flatMap((run) => run.figures).filter((figure) => figure.budget !== '');
    figures.forEach((figure, index) => {
      const verdict = figure.budget === 'not budgeted' ? '—' : figure.pass ? 'ok' : 'OVER';
      rows.push({ bench: index === 0 ? label : '', ...figure, verdict });
    });
    if (runs.length > 0 && figures.length === 0) {
      rows.push({ bench: label, figure: 'its figures', value: 'none budgeted', budget: '', verdict: '—' });
    }
    if (runs.length === 0) {
      const value = exit ? `ended with code ${exit.code} before its figures` : 'did not run';
      rows.push({ bench: label, figure: 'its figures', value, budget: 'a report', verdict: 'OVER' });
    } else if (exit && exit.code !== 0 && figures.every((figure) => figure.pass)) {
      rows.push({ bench: '', figure: 'exit code', value: String(exit.code), budget: '0', verdict: 'OVER' });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--start')) {
  writeSummary({ started: new Date().toISOString(), runs: [], exits: [] });
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = readSummary();
  const rows = summaryRows(summary, expectedBenches());
  const over = rows.filter((row) => row.verdict === 'OVER').length;
  console.log(
    `\nEvery budget of npm run bench, since ${summary.started} (${path.relative(process.cwd(), SUMMARY_FILE)})\n`,
  );
  console.log('| benchmark (load average) | figure | today | budget | |\n|---|---|---:|---|---|');
  for (const row of rows)
    console.log(`| ${row.bench} | ${row.figure} | ${row.value} | ${row.budget} | ${row.verdict} |`);
  console.log(over ? `\n${over} over budget.` : '\nEvery budget met.');
  process.exitCode = over ? 1 : 0;
}
