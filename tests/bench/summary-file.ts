/**
 * test-results/bench-summary.json, shared by the benchmarks (tests/bench/report.ts
 * adds each one's tables and exit code) and `npm run bench`'s closing table
 * (tests/bench/summary.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One line of a benchmark's table. */
export interface Figure {
  figure: string;
  value: string;
  budget: string;
  pass: boolean;
}

/** One benchmark's table as `npm run bench`'s closing summary reads it. */
export interface BenchRun {
  bench: string;
  /** The benchmark's process: the closing table shows each benchmark's last run. */
  pid: number;
  title: string;
  at: string;
  /** The machine's 1-minute load average when the figures were taken. */
  load: number;
  figures: Figure[];
}

/** test-results/bench-summary.json: what every benchmark of one `npm run bench` wrote (tests/bench/summary.ts). */
export interface BenchSummary {
  started: string;
  runs: BenchRun[];
  exits: { bench: string; pid: number; code: number; at: string }[];
}

export const SUMMARY_FILE = path.resolve(import.meta.dirname, '../../test-results/bench-summary.json');

/** `bench:api` when run through npm (`npm run bench` runs each so), else the script's path. */
export function benchName(): string {
  const event = process.env.npm_lifecycle_event;
  if (event?.startsWith('bench:')) return event;
  return path.relative(path.resolve(import.meta.dirname, '../..'), process.argv[1] ?? 'bench');
}

export function readSummary(): BenchSummary {
  if (!existsSync(SUMMARY_FILE)) return { started: new Date().toISOString(), runs: [], exits: [] };
  return JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as BenchSummary;
}

export function writeSummary(summary: BenchSummary): void {
  mkdirSync(path.dirname(SUMMARY_FILE), { recursive: true });
  writeFileSync(SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`);
}
