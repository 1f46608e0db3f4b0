/** One line of a benchmark's table. */
export interface Figure {
  figure: string;
  value: string;
  budget: string;
  pass: boolean;
}

/** Prints the table under its title; the exit code becomes non-zero when a figure is over budget (and stays so). */
export function report(title: string, figures: readonly Figure[]): void {
  console.log(`\n${title}\n`);
  console.log('| figure | value | budget | |\n|---|---:|---|---|');
  for (const row of figures)
    console.log(`| ${row.figure} | ${row.value} | ${row.budget} | ${row.pass ? 'ok' : 'OVER'} |`);
  if (!figures.every((row) => row.pass)) process.exitCode = 1;
}
