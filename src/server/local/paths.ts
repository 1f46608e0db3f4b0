import path from 'node:path';

/** The project root (two levels above src/server/local). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Where the embedded PostgreSQL keeps its files (`DATA_DIR`, default `.data/postgres`). */
export function dataDirectory(): string {
  return path.resolve(PROJECT_ROOT, process.env.DATA_DIR ?? '.data', 'postgres');
}
