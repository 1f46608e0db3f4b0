import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIOME = path.join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
const FIXTURE = path.join(ROOT, 'tests', 'fixtures', 'server-boundary');

interface Diagnostic {
  code: { value: string };
  location: { path: string; range: { start: { line: number } } };
  message: string;
}

/**
 * Lints tests/fixtures/server-boundary with the project's biome.json: the
 * fixture is copied to a temporary folder whose biome.json only extends the
 * project's (no copy of the rule), so the rule's `includes` meet the same
 * paths as in the project, and the repository's own lint never sees them.
 */
function lintFixture(): { status: number | null; diagnostics: Diagnostic[] } {
  const directory = mkdtempSync(path.join(tmpdir(), 'server-boundary-'));
  try {
    cpSync(FIXTURE, directory, { recursive: true });
    writeFileSync(
      path.join(directory, 'biome.json'),
      JSON.stringify({ extends: [path.join(ROOT, 'biome.json')], vcs: { enabled: false } }),
    );
    const run = spawnSync(process.execPath, [BIOME, 'lint', '--reporter=rdjson', '--max-diagnostics=none', '.'], {
      cwd: directory,
      encoding: 'utf8',
    });
    if (!run.stdout.trim()) throw new Error(`biome printed no report: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as { diagnostics?: Diagnostic[] };
    return { status: run.status, diagnostics: report.diagnostics ?? [] };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('the server boundary (lint rule)', () => {
  const { status, diagnostics } = lintFixture();

  it('fails on an import of src/server from components, layouts, lib, pages and scripts, in an .astro <script> too', () => {
    expect(status).toBe(1);
    const found = diagnostics
      .map(({ code, location, message }) => ({ path: location.path, rule: code.value, message }))
      .filter(({ path }) => !path.startsWith('src/server/'))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    const expected = (file: string) => ({
      path: file,
      rule: 'lint/style/noRestrictedImports',
      message: expect.stringContaining('src/server runs only on the server'),
    });
    // Every diagnostic is the rule's, once per forbidden file: the allowed ones get none.
    expect(found).toEqual([
      expected('src/components/ForbiddenScript.astro'),
      expected('src/components/forbidden.ts'),
      expected('src/layouts/forbidden.ts'),
      expected('src/lib/admin/forbidden.ts'),
      expected('src/pages/forbidden.astro'),
      expected('src/scripts/forbidden.ts'),
    ]);
  });

  it('lets src/lib, packages, the CLI scripts and the functions be imported where they belong', () => {
    const paths = diagnostics.map(({ location }) => location.path);
    for (const allowed of ['src/components/allowed.ts', 'scripts/allowed.ts', 'netlify/functions/allowed.ts']) {
      expect(paths).not.toContain(allowed);
    }
  });

  it('fails on an import of src/server/http or src/server/local from the rest of src/server', () => {
    const found = diagnostics
      .map(({ code, location, message }) => ({ path: location.path, rule: code.value, message }))
      .filter(({ path }) => path.startsWith('src/server/'))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    const expected = (file: string) => ({
      path: file,
      rule: 'lint/style/noRestrictedImports',
      message: expect.stringContaining('sit above the domain'),
    });
    expect(found).toEqual([
      expected('src/server/auth/forbidden.ts'),
      expected('src/server/forbidden.ts'),
      expected('src/server/notifications/channels/forbidden.ts'),
    ]);
  });

  it('lets http/ and local/ import each other and the domain, and the domain import itself and src/lib', () => {
    const paths = diagnostics.map(({ location }) => location.path);
    for (const allowed of [
      'src/server/http/allowed.ts',
      'src/server/http/responses.ts',
      'src/server/local/paths.ts',
      'src/server/auth/allowed.ts',
    ]) {
      expect(paths).not.toContain(allowed);
    }
  });
});
