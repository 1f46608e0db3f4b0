import path from 'node:path';
import type { ServerConfig } from '../config.ts';

/** The project root (two levels above src/server/local). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Local state of this checkout (`DATA_DIR`, default `.data`). */
export function dataRoot(config: Pick<ServerConfig, 'dataDir'>): string {
  return path.resolve(PROJECT_ROOT, config.dataDir);
}

/** Where the embedded PostgreSQL keeps its files (`DATA_DIR/postgres`). */
export function dataDirectory(config: Pick<ServerConfig, 'dataDir'>): string {
  return path.join(dataRoot(config), 'postgres');
}
