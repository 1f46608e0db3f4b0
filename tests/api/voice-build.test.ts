import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A tag carrying the voice button's attribute (the inline page script names it as a selector too). */
const VOICE_BUTTON = /<[a-z][^>]*\sdata-voice-button[\s>=]/;

// A bound for a build that would hang: about 30 s alone, and several times that beside a second suite on a
// shared 2-core machine (it passed 120 s when the browser suite ran beside Vitest).
it('builds pages without the voice widget when its configuration is missing', { timeout: 360_000 }, async () => {
  // The suite's own build has the configuration, so the widget is there.
  expect(readFileSync(path.join(ROOT, 'dist/index.html'), 'utf8')).toMatch(VOICE_BUTTON);

  const outDir = await mkdtemp(path.join(os.tmpdir(), 'casas-novoice-'));
  try {
    const env = { ...process.env };
    delete env.PUBLIC_VAPI_PUBLIC_KEY;
    delete env.PUBLIC_VAPI_ASSISTANT_ID;
    const build = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir],
      {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      },
    );
    expect(build.status, build.stderr).toBe(0);
    for (const page of ['index.html', 'modelos.html', 'prefiltro.html']) {
      const html = readFileSync(path.join(outDir, page), 'utf8');
      expect(html, page).not.toMatch(VOICE_BUTTON);
      expect(html, page).not.toContain('VoiceWidget');
    }
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(true);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
