/** One line of a benchmark's table. */
export interface Figure {
  figure: string;
  value: string;
  budget: string;
  pass: boolean;
}

/** Prints the table under its title and sets the exit code: non-zero when a figure is over budget. */
export function report(title: string, figures: readonly Figure[]): void {
  console.log(`\n${title}\n`);
  console.log('| figure | value | budget | |\n|---|---:|---|---|');
  for (const row of figures)
    console.log(`| ${row.figure} | ${row.value} | ${row.budget} | ${row.pass ? 'ok' : 'OVER'} |`);
  process.exitCode = figures.every((row) => row.pass) ? 0 : 1;
}
