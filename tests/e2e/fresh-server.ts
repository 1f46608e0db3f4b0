/**
 * The browser suite's server: the local server as `npm start` runs it, on a
 * database made fresh for every run (its DATA_DIR removed first), as on CI's
 * clean clone; the directory, named by the run's free port, goes again when
 * the server stops. No story leans on what an earlier run left, and the panel's
 * views (and axe over them) never grow with every run made on this machine.
 */
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !/^\.data\/e2e(-\d+)?$/.test(dataDir)) {
  throw new Error(`fresh-server removes only the browser suite's own data directory, not ${dataDir}`);
}
await rm(path.resolve(dataDir), { recursive: true, force: true });
// Each run has a directory of its own (named by its free port): it goes when the server stops.
process.on('exit', () => rmSync(path.resolve(dataDir), { recursive: true, force: true }));
const { main } = await import('../../src/server/local/serve.ts');
await main();
