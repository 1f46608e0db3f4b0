/**
 * The build's AVIF renderings are committed in its cache (.cache/astro/assets, decision 0091), so a fresh
 * clone does not encode them again: every AVIF the build wrote is there and committed, and nothing committed
 * there is a rendering the build no longer makes. Read after `npm test`'s build (dist/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = '.cache/astro/assets';

describe('the committed AVIF renderings', () => {
  it('are exactly those of the build', () => {
    expect(existsSync(path.join(ROOT, 'dist/_astro')), 'dist/ is missing: run `npm run build`').toBe(true);
    const built = readdirSync(path.join(ROOT, 'dist/_astro'))
      .filter((name) => name.endsWith('.avif'))
      .sort();
    const committed = execFileSync('git', ['ls-files', '--', `${CACHE}/*.avif`], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => path.basename(file))
      .sort();
    expect(built.length).toBeGreaterThan(0);
    const missing = built.filter((name) => !committed.includes(name));
    const stale = committed.filter((name) => !built.includes(name));
    expect(missing, `new renderings: git add ${CACHE}`).toEqual([]);
    expect(stale, `renderings the build no longer makes: git rm them from ${CACHE}`).toEqual([]);
  });
});
