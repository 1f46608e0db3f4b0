import path from 'node:path';
import type { ServerConfig } from './config.ts';

/** The project root (two levels above src/server). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

/** Local state of this checkout (`DATA_DIR`, default `.data`). */
export function dataRoot(config: Pick<ServerConfig, 'dataDir'>): string {
  return path.resolve(PROJECT_ROOT, config.dataDir);
}
