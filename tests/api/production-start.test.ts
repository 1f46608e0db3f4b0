import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/spawn-server.ts';

/**
 * Issue #25, item 5: a production start of the local server, `npm start` or
 * `npm run serve` (the README's recipe for any other Node host), refuses a
 * site whose data still has launch placeholders, with the Spanish list
 * (decision 0033). Each case runs the real process from a copy of the
 * project whose site.json is one of the launch fixtures, so the tests do not
 * depend on today's data.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'tests/fixtures/launch');
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** A copy of the project (its code, data and a build stamp newer than them) with `site` as site.json. */
function projectWith(site: 'placeholders.json' | 'filled-in.json'): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'casas-start-'));
  copies.push(copy);
  for (const entry of ['src', 'db', 'netlify', 'public', 'package.json', 'astro.config.mjs', 'package-lock.json']) {
    cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  cpSync(path.join(FIXTURES, site), path.join(copy, 'src/data/site.json'));
  // `npm start` builds only when a source is newer than dist/index.html: this one is newer than all.
  mkdirSync(path.join(copy, 'dist'));
  writeFileSync(path.join(copy, 'dist/index.html'), '<!doctype html><title>Ceiba</title>');
  const later = new Date(Date.now() + 60_000);
  utimesSync(path.join(copy, 'dist/index.html'), later, later);
  return copy;
}

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: process.env.DATABASE_URL,
  SITE_URL: 'https://www.example.mx',
};
const START = 'src/server/local/start.ts'; // what `npm start` runs
const SERVE = 'src/server/local/serve.ts'; // what `npm run serve` runs
const REFUSAL =
  /exited with 1:[\s\S]*El sitio todavía no está listo para publicarse \(\d+ pendientes\):\n {2}1\. src\/data\/site\.json[\s\S]*LAUNCH_CHECK=warn/;

describe('a production start with launch placeholders left', () => {
  it('npm start refuses before building, listing each placeholder in Spanish', async () => {
    const root = projectWith('placeholders.json');
    const refused = spawnServer(PRODUCTION, { script: START, root });
    await expect(refused).rejects.toThrow(REFUSAL);
    await expect(refused).rejects.toThrow(/campo "phone"/);
    await expect(refused).rejects.not.toThrow(/Building the site/);
  });

  it('npm run serve (any other Node host) refuses with the same list', async () => {
    const root = projectWith('placeholders.json');
    await expect(spawnServer(PRODUCTION, { script: SERVE, root })).rejects.toThrow(REFUSAL);
  });

  it('LAUNCH_CHECK=warn starts it on purpose, logging the list', async () => {
    const root = projectWith('placeholders.json');
    const server = await spawnServer({ ...PRODUCTION, LAUNCH_CHECK: 'warn' }, { script: SERVE, root });
    expect(server.output()).toContain('"event":"launch_placeholders"');
    expect((await fetch(`${server.url}/api/admin-exists`)).status).toBe(200);
    await server.stop();
  });
});

describe('a production start of a site ready to launch', () => {
  it('serves, and development never checks', async () => {
    const root = projectWith('filled-in.json');
    const ready = await spawnServer(PRODUCTION, { script: SERVE, root });
    expect(ready.output()).not.toContain('launch_placeholders');
    expect((await fetch(`${ready.url}/api/admin-exists`)).status).toBe(200);
    await ready.stop();

    const development = await spawnServer(
      { NODE_ENV: 'development', DATABASE_URL: process.env.DATABASE_URL },
      { script: SERVE, root: projectWith('placeholders.json') },
    );
    expect(development.output()).not.toContain('launch_placeholders');
    await development.stop();
  });
});
