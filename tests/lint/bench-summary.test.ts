/**
 * `npm run bench` ends with one table of every budget (tests/bench/summary.ts):
 * its script runs every `bench:*` script between the summary's first and last
 * steps, each benchmark writes its figures through tests/bench/report.ts, and
 * the table marks what is over budget, crashed or never ran.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedBenches, summaryRows } from '../bench/summary.ts';
import type { BenchSummary, Figure } from '../bench/summary-file.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const benchScripts = Object.keys(scripts).filter((name) => name.startsWith('bench:'));

describe('npm run bench', () => {
  it('runs every bench:* script once, on after one fails, between the summary’s first and last steps', () => {
    const steps = (scripts.bench ?? '').split(';').map((step) => step.trim());
    expect(steps[0]).toBe('node tests/bench/summary.ts --start');
    expect(steps.at(-1)).toBe('node tests/bench/summary.ts');
    expect(steps.slice(1, -1)).toEqual(steps.slice(1, -1).filter((step) => /^npm run bench:[a-z-]+$/.test(step)));
    expect(expectedBenches().sort()).toEqual(benchScripts.sort());
  });

  it('has every benchmark write its figures through tests/bench/report.ts', () => {
    const silent = benchScripts.filter((name) => {
      const file = /node (tests\/bench\/\S+\.ts)/.exec(scripts[name] ?? '')?.[1];
      return !file || !/from '\.\/report\.ts'/.test(readFileSync(path.join(ROOT, file), 'utf8'));
    });
    expect(silent).toEqual([]);
  });
});

describe('the closing table', () => {
  const figure = (name: string, pass: boolean, budget = '<= 50 ms'): Figure => ({
    figure: name,
    value: pass ? '10 ms' : '90 ms',
    budget,
    pass,
  });
  const run = (bench: string, pid: number, figures: Figure[]) => ({
    bench,
    pid,
    title: bench,
    at: '',
    load: 2,
    figures,
  });
  const exit = (bench: string, pid: number, code: number) => ({ bench, pid, code, at: '' });

  it('shows each budgeted figure of each benchmark’s last run, and what is over, crashed or missing', () => {
    const summary: BenchSummary = {
      started: '',
      runs: [
        run('bench:a', 1, [figure('old run', false)]),
        run('bench:a', 2, [
          figure('p95', true),
          figure('each round', true, ''),
          figure('wall clock', true, 'not budgeted'),
        ]),
        run('bench:b', 3, [figure('p99', false)]),
        run('bench:d', 5, [figure('p50', true)]),
      ],
      exits: [
        exit('bench:a', 1, 1),
        exit('bench:a', 2, 0),
        exit('bench:b', 3, 1),
        exit('bench:c', 4, 2),
        exit('bench:d', 5, 1),
      ],
    };
    const rows = summaryRows(summary, ['bench:a', 'bench:b', 'bench:c', 'bench:d', 'bench:e']);
    expect(rows.map((row) => [row.bench, row.figure, row.verdict])).toEqual([
      ['bench:a (load 2.0)', 'p95', 'ok'],
      ['', 'wall clock', '—'],
      ['bench:b (load 2.0)', 'p99', 'OVER'],
      ['bench:c', 'its figures', 'OVER'],
      ['bench:d (load 2.0)', 'p50', 'ok'],
      ['', 'exit code', 'OVER'],
      ['bench:e', 'its figures', 'OVER'],
    ]);
    expect(rows.find((row) => row.bench === 'bench:c')?.value).toBe('ended with code 2 before its figures');
    expect(rows.find((row) => row.bench === 'bench:e')?.value).toBe('did not run');
  });
});
