import path from 'node:path';
import { z } from 'zod';
import { checkContent, PROJECT_ROOT, readDataFiles, readJsonFile, readLegalTexts } from './content-check.ts';
import { checkLaunch, launchReport } from './launch.ts';
import { DataError } from './problems.ts';
import { modelSchema, siteSchema } from './schemas.ts';

/**
 * The launch check of a checkout's files (Node only): the data files must
 * read and match their schemas first (a broken file is reported as such),
 * then every launch fact (`checkLaunch`). `ready` is false while anything is
 * left; `report` is what the terminal shows, in Spanish. `npm run
 * check:launch` and the local server's start in production run it (decisions
 * 0020 and 0033). `siteFile` checks another copy of site.json (the tests'
 * fixtures), relative to the working directory.
 */
export function checkLaunchFiles(root = PROJECT_ROOT, siteFile?: string): { ready: boolean; report: string } {
  const { data, problems } = readDataFiles(root);
  if (siteFile) {
    const read = readJsonFile(process.cwd(), path.relative(process.cwd(), path.resolve(siteFile)));
    if ('problem' in read) problems.push(read.problem);
    else data.site = read.data;
  }
  const legal = readLegalTexts(root);
  problems.push(...checkContent(data, legal, root));
  if (problems.length) return { ready: false, report: new DataError(problems).message };
  const pending = checkLaunch(siteSchema.parse(data.site), legal, z.array(modelSchema).parse(data.models));
  return { ready: pending.length === 0, report: launchReport(pending) };
}
