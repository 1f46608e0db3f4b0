import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Maintenance database of the test cluster, to create one database per test file. */
    pgAdminUrl: string;
  }
}

/**
 * One real PostgreSQL cluster for the whole run, deleted at the end; without fsync (`durable: false`):
 * a test never survives a crash of the machine, and 130-odd databases made and filled cost disk writes.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'casas-test-pg-'));
  const cluster = await startEmbeddedPostgres({ dataDir, ephemeral: true, durable: false });
  project.provide('pgAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
