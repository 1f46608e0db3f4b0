import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import { dataRoot } from '../data-root.ts';

export { dataRoot, PROJECT_ROOT } from '../data-root.ts';

/** Where the embedded PostgreSQL keeps its files (`DATA_DIR/postgres`). */
export function dataDirectory(config: Pick<ServerConfig, 'dataDir'>): string {
  return path.join(dataRoot(config), 'postgres');
}
