/**
 * How a check of ours stops `astro build` / `astro dev`: its Spanish report
 * on the terminal and exit code 1, with nothing after it. Throwing from an
 * Astro hook would print "An unhandled error occurred while running the
 * astro:config:setup hook" and a stack trace around the report (Astro 7
 * wraps every hook so), which buries the list for whoever edits the content.
 * The tests pass their own `print` and `exit`.
 */
export interface StopBuild {
  print?: (report: string) => void;
  exit?: (code: number) => void;
}

export function stopBuild(report: string, { print, exit }: StopBuild = {}): void {
  (print ?? ((text: string) => process.stderr.write(`\n${text}\n\n`)))(report);
  (exit ?? ((code: number) => process.exit(code)))(1);
}
