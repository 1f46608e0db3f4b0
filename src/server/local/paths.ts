import path from 'node:path';

/** The project root (two levels above src/server/local). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Local state of this checkout (`DATA_DIR`, default `.data`). */
export function dataRoot(): string {
  return path.resolve(PROJECT_ROOT, process.env.DATA_DIR ?? '.data');
}

/** Where the embedded PostgreSQL keeps its files (`DATA_DIR/postgres`). */
export function dataDirectory(): string {
  return path.join(dataRoot(), 'postgres');
}
