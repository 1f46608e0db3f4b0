/**
 * `npm run check:launch`: lists, in Spanish, every fact of the site that is
 * still a placeholder or whose link has the wrong form, with the file and
 * field to edit, and exits 1 while any remains (0 when the site can launch).
 * A broken data file is reported too (exit 1). `-- --site otra/ruta.json`
 * checks another copy of src/data/site.json instead (the tests' filled-in
 * fixture). The production build runs the same check (decision 0020).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkContent, PROJECT_ROOT, readDataFiles, readJsonFile, readLegalTexts } from '../src/data/content-check.ts';
import { checkLaunch, launchReport } from '../src/data/launch.ts';
import { DataError } from '../src/data/problems.ts';
import { siteSchema } from '../src/data/schemas.ts';

let site: string | undefined;
try {
  ({ site } = parseArgs({ options: { site: { type: 'string' } } }).values);
} catch {
  console.error('Uso: npm run check:launch [-- --site ruta/a/site.json]');
  process.exit(2);
}

const { data, problems } = readDataFiles(PROJECT_ROOT);
if (site) {
  const read = readJsonFile(process.cwd(), path.relative(process.cwd(), path.resolve(site)));
  if ('problem' in read) problems.push(read.problem);
  else data.site = read.data;
}
const legal = readLegalTexts(PROJECT_ROOT);
problems.push(...checkContent(data, legal, PROJECT_ROOT));
if (problems.length) {
  console.error(new DataError(problems).message);
  process.exit(1);
}

const pending = checkLaunch(siteSchema.parse(data.site), legal);
(pending.length ? console.error : console.log)(launchReport(pending));
process.exit(pending.length ? 1 : 0);
