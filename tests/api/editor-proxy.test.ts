import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_LOCAL_CSP } from '../../src/server/http/headers.ts';

/**
 * `npm run editor`'s proxy is the editor page's alone (issue #38 item 3,
 * decision 0051): the real script over a copy of the content, on a free
 * port, asked over real HTTP by its own page, by a page of another local
 * origin, through a rebound name, and for files that are not content.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRET = 'JWT_SECRET=no-debe-salir-de-esta-computadora\n';
const CONFIG = 'export default {};\n';

let copy: string;
let editor: ChildProcess;
let origin: string;
/** Another local origin: a page any program of this machine could serve, on its own free port. */
let otherSite: http.Server;
let otherOrigin: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request as a browser sends it (Origin and Host set as the page's), over plain HTTP to the editor's port. */
function send(
  body: unknown,
  {
    host = new URL(origin).host,
    from = origin,
    method = 'POST',
    raw,
  }: { host?: string; from?: string; method?: string; raw?: string } = {},
): Promise<Answer> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/v1',
        method,
        headers: { Host: host, Origin: from, 'Content-Type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(raw ?? (body === undefined ? undefined : JSON.stringify(body)));
  });
}

const read = (file: string) => ({ action: 'getEntry', params: { branch: 'main', path: file } });
const write = (file: string, raw: string) => ({
  action: 'persistEntry',
  params: {
    branch: 'main',
    dataFiles: [{ slug: 'x', path: file, raw }],
    assets: [],
    options: { commitMessage: 'x', useWorkflow: false, status: 'draft' },
  },
});
const upload = (file: string) => ({
  action: 'persistMedia',
  params: {
    branch: 'main',
    asset: { path: file, content: Buffer.from('<svg/>').toString('base64'), encoding: 'base64' },
    options: { commitMessage: 'x' },
  },
});
const inCopy = (file: string) => path.join(copy, file);
const text = (file: string) => readFileSync(inCopy(file), 'utf8');

beforeAll(async () => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'casas-editor-proxy-'));
  for (const folder of ['src/data', 'src/content', 'src/assets', 'src/pages'])
    cpSync(path.join(ROOT, folder), inCopy(folder), { recursive: true });
  writeFileSync(inCopy('.env'), SECRET);
  writeFileSync(inCopy('astro.config.mjs'), CONFIG);
  mkdirSync(inCopy('.git'));
  writeFileSync(inCopy('.git/config'), '[core]\n');
  // A link inside the content to a file that is not: read through it, it would give the secret.
  symlinkSync('../../../.env', inCopy('src/content/legal/enlace.md'));
  // The same among the images (a listing of the media library reads every file's content).
  symlinkSync('../../../.env', inCopy('src/assets/gallery/enlace.svg'));

  otherSite = http.createServer((_, response) => response.end('<!doctype html><title>otro</title>'));
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;

  editor = spawn(process.execPath, ['scripts/editor.ts'], {
    cwd: ROOT,
    env: { ...process.env, EDITOR_PORT: '0', EDITOR_ROOT: copy },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    editor.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /Editor de contenido: (http:\/\/127\.0\.0\.1:\d+)\/editor/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    editor.on('exit', (code) => reject(new Error(`npm run editor terminó (${code}):\n${output}`)));
  });
}, 180_000);

afterAll(async () => {
  if (editor && editor.exitCode === null && editor.signalCode === null) {
    const exited = new Promise((resolve) => editor.once('exit', resolve));
    editor.kill('SIGTERM');
    await exited;
  }
  otherSite?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("npm run editor's proxy", () => {
  it("serves its page on one origin, with a policy that reaches that origin only, and answers that page's requests", async () => {
    const page = await fetch(`${origin}/editor`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(EDITOR_LOCAL_CSP);
    expect(EDITOR_LOCAL_CSP).toMatch(/connect-src 'self' blob: data:;/);
    expect(EDITOR_LOCAL_CSP).not.toMatch(/127\.0\.0\.1|localhost|:\*|https:/);
    expect(await page.text()).toContain(`"localProxy":"${origin}/api/v1"`);

    const info = await send({ action: 'info' });
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({ type: 'local_fs' });
    const models = await send(read('src/data/models.json'));
    expect(JSON.parse(models.body).data).toBe(text('src/data/models.json'));
    const saved = text('src/data/steps.json').replace('"steps"', '"steps" ');
    expect((await send(write('src/data/steps.json', saved))).status).toBe(200);
    expect(text('src/data/steps.json')).toBe(saved);
    expect((await send(upload('src/assets/models/nuevo.svg'))).status).toBe(200);
    expect(text('src/assets/models/nuevo.svg')).toBe('<svg/>');
  });

  it('refuses a page of another local origin: no read, no write, no CORS answer', async () => {
    const site = text('src/data/site.json');
    for (const body of [
      read('.env'),
      read('src/data/site.json'),
      write('src/data/site.json', '{}'),
      { action: 'info' },
    ]) {
      const answer = await send(body, { from: otherOrigin });
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('JWT_SECRET');
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The browser's preflight of a JSON POST is refused too, so the browser never sends it.
    const preflight = await send(undefined, { from: otherOrigin, method: 'OPTIONS' });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(text('src/data/site.json')).toBe(site);
  });

  it('refuses a foreign Host (a name rebound to this machine), even with its own Origin', async () => {
    const host = `rebind.attacker.example:${new URL(origin).port}`;
    for (const body of [read('.env'), write('astro.config.mjs', 'console.log(1)'), { action: 'info' }]) {
      const answer = await send(body, { host, from: `http://${host}` });
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain('JWT_SECRET');
    }
    const page = await new Promise<number>((resolve) =>
      http.get(
        { host: '127.0.0.1', port: new URL(origin).port, path: '/editor', headers: { Host: host } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      ),
    );
    expect(page).toBe(403);
    expect(text('astro.config.mjs')).toBe(CONFIG);
  });

  it("reads and writes only the content, even for the editor's own page", async () => {
    for (const file of [
      '.env',
      '.git/config',
      'astro.config.mjs',
      'src/data/rules.ts',
      'src/pages/index.astro',
      'src/content/legal/enlace.md',
      'src/data/../../.env',
    ]) {
      const answer = await send(read(file));
      expect(answer.status, file).toBe(403);
      expect(answer.body, file).not.toContain('JWT_SECRET');
      expect(answer.body, file).not.toContain('[core]');
    }
    expect((await send({ action: 'getMediaFile', params: { branch: 'main', path: '.env' } })).status).toBe(403);
    expect((await send({ action: 'getMedia', params: { branch: 'main', mediaFolder: '.' } })).status).toBe(403);
    expect(
      (await send({ action: 'entriesByFolder', params: { branch: 'main', folder: 'src', extension: 'ts', depth: 9 } }))
        .status,
    ).toBe(403);
    expect(
      (await send({ action: 'entriesByFiles', params: { branch: 'main', files: [{ path: 'src/data/copy.ts' }] } }))
        .status,
    ).toBe(403);

    const code = text('src/data/rules.ts');
    for (const file of ['.env', 'astro.config.mjs', 'src/data/rules.ts', 'src/data/nuevo.ts', '.git/config'])
      expect((await send(write(file, 'console.log(1)'))).status, file).toBe(403);
    for (const file of ['src/pages/x.svg', 'src/assets/models/x.ts', 'src/data/x.svg', 'src/content/legal/x.svg'])
      expect((await send(upload(file))).status, file).toBe(403);
    // A content file moved onto code (persistEntry's newPath) is refused as a write there.
    const moved = write('src/data/steps.json', '{}') as { params: { dataFiles: Record<string, string>[] } };
    (moved.params.dataFiles[0] as Record<string, string>).newPath = 'src/data/rules.ts';
    expect((await send(moved)).status).toBe(403);
    // A data file "renamed" to a legal page: decap-server would move its whole folder (the code of src/data) there.
    const carried = write('src/data/site.json', '{}') as { params: { dataFiles: Record<string, string>[] } };
    (carried.params.dataFiles[0] as Record<string, string>).newPath = 'src/content/legal/nuevo.md';
    expect((await send(carried)).status).toBe(403);
    // Listings answer the content only: the links among the legal pages and the images are left out.
    const legal = await send({
      action: 'entriesByFolder',
      params: { branch: 'main', folder: 'src/content/legal', extension: 'md', depth: 1 },
    });
    expect(legal.status).toBe(200);
    const pages = (JSON.parse(legal.body) as { file: { path: string } }[]).map((entry) => entry.file.path);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages).not.toContain('src/content/legal/enlace.md');
    expect(legal.body).not.toContain('JWT_SECRET');
    const images = await send({ action: 'getMedia', params: { branch: 'main', mediaFolder: 'src/assets/gallery' } });
    expect(images.status).toBe(200);
    expect((JSON.parse(images.body) as { path: string }[]).map((image) => image.path)).not.toContain(
      'src/assets/gallery/enlace.svg',
    );
    expect(Buffer.from(images.body).toString()).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 20));
    for (const file of ['.env', 'astro.config.mjs'])
      expect(
        (await send({ action: 'deleteFile', params: { branch: 'main', path: file, options: { commitMessage: 'x' } } }))
          .status,
      ).toBe(403);
    // A body that is not JSON: a short Spanish answer, no stack trace.
    const garbled = await send(undefined, { raw: '{"action": "getEntry", params' });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toEqual({ error: 'El editor mandó una petición que no se entiende.' });
    // The editorial workflow's git actions are not this editor's.
    expect((await send({ action: 'unpublishedEntries', params: { branch: 'main' } })).status).toBe(403);

    expect(text('.env')).toBe(SECRET);
    expect(text('astro.config.mjs')).toBe(CONFIG);
    expect(text('.git/config')).toBe('[core]\n');
    expect(text('src/data/rules.ts')).toBe(code);
    expect(text('src/data/steps.json')).not.toBe('{}');
    for (const file of ['src/data/nuevo.ts', 'src/pages/x.svg', 'src/assets/models/x.ts', 'src/data/x.svg'])
      expect(existsSync(inCopy(file)), file).toBe(false);
    expect(existsSync(inCopy('src/content/legal/rules.ts'))).toBe(false);
  });
});
