/**
 * `npm run check:launch`: lists, in Spanish, every fact of the site that is
 * still a placeholder or whose link has the wrong form, with the file and
 * field to edit, and exits 1 while any remains (0 when the site can launch).
 * A broken data file is reported too (exit 1). `-- --site otra/ruta.json`
 * checks another copy of src/data/site.json instead (the tests' filled-in
 * fixture). The production build and the local server's production start run
 * the same check (decisions 0020 and 0033). The environment's online
 * payments are checked too: a Stripe key without its webhook's secret, or a
 * test key in production, is named and exits 1 (issue #41), and so is a
 * published voice assistant that is not this repository's (issue #42).
 */
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../src/data/content-check.ts';
import { checkLaunchFiles } from '../src/data/launch-files.ts';
import { paymentsLaunchProblems } from '../src/server/payments/launch-check.ts';
import { voiceLaunchProblems } from '../src/server/voice/publish.ts';

let site: string | undefined;
try {
  ({ site } = parseArgs({ options: { site: { type: 'string' } } }).values);
} catch {
  console.error('Uso: npm run check:launch [-- --site ruta/a/site.json]');
  process.exit(2);
}

const { ready, report } = checkLaunchFiles(PROJECT_ROOT, site);
(ready ? console.log : console.error)(report);
// The deploy's variables too: online payments need their webhook's secret (issue #41).
const payments = paymentsLaunchProblems(process.env);
if (payments.length > 0) {
  console.error(['Pagos en línea (variables de entorno):', ...payments.map((problem) => `  - ${problem}`)].join('\n'));
}
// The voice agent's published assistant, when there is one: it must be this repository's (issue #42).
const voice = await voiceLaunchProblems(process.env);
if (voice.length > 0) {
  console.error(['Agente de voz:', ...voice.map((problem) => `  - ${problem}`)].join('\n'));
}
process.exit(ready && payments.length === 0 && voice.length === 0 ? 0 : 1);
