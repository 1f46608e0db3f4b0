import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every file under a build directory, at any depth, as absolute paths. */
export async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
