/**
 * Stops an embedded PostgreSQL whose owner died without stopping it.
 *
 * `node postgres-watchdog.ts <owner pid> <postmaster pid> <data dir> <ephemeral 0|1>`
 * runs detached beside the postmaster. PostgreSQL does not notice that the
 * process that started it is gone, so this watches both: when the postmaster
 * stops it exits too; when the owner is gone it asks the postmaster for a fast
 * shutdown (SIGINT), forces it after 10 s (SIGKILL), and deletes an ephemeral
 * data directory.
 */
import { rmSync } from 'node:fs';
import { isAlive } from '../process-alive.ts';

const [ownerArgument, postmasterArgument, dataDir, ephemeral] = process.argv.slice(2);
const owner = Number(ownerArgument);
const postmaster = Number(postmasterArgument);
const POLL_MS = 500;
const FORCE_AFTER_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

while (isAlive(owner) && isAlive(postmaster)) await sleep(POLL_MS);

if (isAlive(postmaster)) {
  process.kill(postmaster, 'SIGINT');
  for (let waited = 0; waited < FORCE_AFTER_MS && isAlive(postmaster); waited += 100) await sleep(100);
  if (isAlive(postmaster)) process.kill(postmaster, 'SIGKILL');
  if (ephemeral === '1' && dataDir) rmSync(dataDir, { recursive: true, force: true });
}
