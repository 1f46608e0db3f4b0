import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readConfig } from '../config.ts';
import { checkLaunchAtStart } from './launch.ts';
import { PROJECT_ROOT } from './paths.ts';

/**
 * `npm start`: builds the site when a source is newer than the last build,
 * then runs the local server (embedded PostgreSQL unless DATABASE_URL is set).
 * In production a launch placeholder left stops it before the build, with the
 * Spanish list (the server would refuse it after; decision 0033).
 */
const BUILD_INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json'];
const BUILD_OUTPUT = path.join(PROJECT_ROOT, 'dist', 'index.html');

function newestChange(entry: string): number {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(entry).map((child) => newestChange(path.join(entry, child))));
}

function needsBuild(): boolean {
  let built: number;
  try {
    built = statSync(BUILD_OUTPUT).mtimeMs;
  } catch {
    return true;
  }
  return BUILD_INPUTS.some((input) => newestChange(path.join(PROJECT_ROOT, input)) > built);
}

try {
  checkLaunchAtStart(readConfig());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

if (needsBuild()) {
  console.log('Building the site…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { main } = await import('./serve.ts');
await main();
