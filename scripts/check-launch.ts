/**
 * `npm run check:launch`: lists, in Spanish, every fact of the site that is
 * still a placeholder or whose link has the wrong form, with the file and
 * field to edit, and exits 1 while any remains (0 when the site can launch).
 * A broken data file is reported too (exit 1). `-- --site otra/ruta.json`
 * checks another copy of src/data/site.json instead (the tests' filled-in
 * fixture). The production build and the local server's production start run
 * the same check (decisions 0020 and 0033).
 */
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../src/data/content-check.ts';
import { checkLaunchFiles } from '../src/data/launch-files.ts';

let site: string | undefined;
try {
  ({ site } = parseArgs({ options: { site: { type: 'string' } } }).values);
} catch {
  console.error('Uso: npm run check:launch [-- --site ruta/a/site.json]');
  process.exit(2);
}

const { ready, report } = checkLaunchFiles(PROJECT_ROOT, site);
(ready ? console.log : console.error)(report);
process.exit(ready ? 0 : 1);
