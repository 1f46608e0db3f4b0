import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { STATIC_IMPORT } from '../../src/integrations/island-preload.ts';
import { EDITOR_CSP } from '../../src/server/http/headers.ts';
import { type RunningServer, startServer } from '../support/server.ts';

const DIST = path.resolve(import.meta.dirname, '../../dist');

/** Parses Netlify's `_headers` file: path pattern -> headers. */
function netlifyRules(): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> = {};
  for (const line of readFileSync(path.join(DIST, '_headers'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    if (!line.startsWith(' ')) {
      current = {};
      rules.set(line.trim(), current);
    } else {
      const [name, ...value] = line.trim().split(': ');
      current[(name as string).toLowerCase()] = value.join(': ');
    }
  }
  return rules;
}

describe('the built site on the local server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    if (!existsSync(path.join(DIST, 'index.html')))
      throw new Error('dist/ is missing: run `npm run build` (npm test does).');
    server = await startServer();
  });

  it('sends on pages the headers that Netlify gets from dist/_headers', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const everyPath = netlifyRules().get('/*') ?? {};
    expect(Object.keys(everyPath).length).toBeGreaterThan(3);
    for (const [name, value] of Object.entries(everyPath)) expect(response.headers.get(name), name).toBe(value);
    // Pages are revalidated on every visit and keep their opener policy, each from its own rule in dist/_headers.
    const page = { 'cache-control': 'public, max-age=0, must-revalidate', 'cross-origin-opener-policy': 'same-origin' };
    for (const [name, value] of Object.entries(page)) expect(response.headers.get(name), name).toBe(value);
    for (const pathname of ['/', '/modelos', '/admin', '/admin/llamada'])
      expect(netlifyRules().get(pathname)).toEqual(page);
  });

  it('sends the security headers on a page, an asset and a function answer (the opener policy on the page and the answer)', async () => {
    const asset = readdirSync(path.join(DIST, '_astro')).find((file) => file.endsWith('.js'));
    const answers = {
      page: await fetch(`${server.url}/modelos`),
      asset: await fetch(`${server.url}/_astro/${asset}`),
      function: await fetch(`${server.url}/api/quick-quotes`, {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json' },
      }),
    };
    for (const [kind, response] of Object.entries(answers)) {
      expect(response.headers.get('strict-transport-security'), kind).toBe('max-age=63072000; includeSubDomains');
      expect(response.headers.get('x-content-type-options'), kind).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), kind).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy'), kind).toBe('camera=(), geolocation=(), microphone=(self)');
      if (kind !== 'asset') expect(response.headers.get('cross-origin-opener-policy'), kind).toBe('same-origin');
    }
    const pageCsp = answers.page.headers.get('content-security-policy') ?? '';
    expect(pageCsp).toMatch(/script-src 'self' https:\/\/c\.daily\.co( 'sha256-[\w+/=]+')+;/);
    expect(pageCsp).toContain("frame-ancestors 'none'");
    expect(pageCsp).toContain(
      "connect-src 'self' https://api.vapi.ai https://*.daily.co wss://*.wss.daily.co https://*.pluot.blue",
    );
    expect(pageCsp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(answers.function.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('serves /editor apart: its own CSP there and in dist/_headers, not indexed, never linked or loaded by a public page', async () => {
    for (const pathname of ['/editor', '/editor/editor.js', '/editor/preview.css']) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.status, pathname).toBe(200);
      // The deployed build's editor (GitHub), here as on Netlify: it reaches no port of this machine (decision 0051).
      expect(response.headers.get('content-security-policy'), pathname).toBe(EDITOR_CSP);
      expect(response.headers.get('x-robots-tag'), pathname).toBe('noindex');
      expect(response.headers.get('cross-origin-opener-policy'), pathname).toBe('same-origin-allow-popups');
      await response.arrayBuffer();
    }
    // One rule, /editor/*, covers /editor too (as Netlify matches it); no page rule for /editor sets a second value.
    const headers = readFileSync(path.join(DIST, '_headers'), 'utf8');
    expect(headers).toContain(`/editor/*\n  Content-Security-Policy: ${EDITOR_CSP}\n`);
    expect(EDITOR_CSP).not.toMatch(/127\.0\.0\.1|localhost|:\*/);
    expect(netlifyRules().has('/editor')).toBe(false);
    for (const pathname of ['/', '/modelos', '/admin']) {
      const page = await (await fetch(`${server.url}${pathname}`)).text();
      expect(page, pathname).not.toMatch(/\/editor\b/);
    }
  });

  it('caches fingerprinted assets for a year, as the /_astro/* rule says', async () => {
    const asset = readdirSync(path.join(DIST, '_astro')).find((file) => file.endsWith('.css'));
    const response = await fetch(`${server.url}/_astro/${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(netlifyRules().get('/_astro/*')?.['cache-control']);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never serves the platform files, and answers 404 to unknown paths', async () => {
    expect((await fetch(`${server.url}/_headers`)).status).toBe(404);
    expect((await fetch(`${server.url}/no-existe`)).status).toBe(404);
  });

  it('keeps serving when visitors disconnect mid-download', async () => {
    const { hostname, port } = new URL(server.url);
    const asset = readdirSync(path.join(DIST, '_astro')).find((file) => file.endsWith('.css'));
    for (const pathname of ['/', '/modelos', `/_astro/${asset}`, '/no-existe']) {
      for (let delay = 0; delay < 6; delay++) {
        await new Promise<void>((resolve) => {
          const request = http.get({
            hostname,
            port,
            path: pathname,
            headers: { 'accept-encoding': delay % 2 ? 'gzip' : 'identity' },
          });
          request.on('error', () => resolve());
          setTimeout(() => {
            request.destroy();
            resolve();
          }, delay);
        });
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Error|Warning/);
  });

  it('sends the files the build compressed: brotli, gzip, or the file itself, each decoding to the same bytes', async () => {
    const script = readdirSync(path.join(DIST, '_astro')).find(
      (file) => file.endsWith('.js') && statSync(path.join(DIST, '_astro', file)).size > 10_000,
    );
    for (const [pathname, file] of [
      ['/', 'index.html'],
      [`/_astro/${script}`, `_astro/${script}`],
    ] as const) {
      const original = readFileSync(path.join(DIST, file));
      for (const encoding of ['br', 'gzip'] as const) {
        const compressed = readFileSync(path.join(DIST, `${file}.${encoding === 'br' ? 'br' : 'gz'}`));
        expect(compressed.byteLength, `${file}.${encoding}`).toBeLessThan(original.byteLength / 2);
        const answer = await rawGet(pathname, encoding);
        expect(answer.headers['content-encoding'], `${pathname} ${encoding}`).toBe(encoding);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        // The very file written at build time, not compressed again on the fly.
        expect(answer.body.equals(compressed), `${pathname} ${encoding}`).toBe(true);
      }
      const identity = await rawGet(pathname, 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(original)).toBe(true);
    }
    expect((await fetch(`${server.url}/_headers.br`)).status).toBe(404);
  });

  it('runs each page’s script inline, allowed by the page’s own CSP hash, with no script file before interaction', async () => {
    // The visitors' page script (src/scripts/site.ts: the outbox, `leadOutbox`) on the public pages; the team's
    // (src/scripts/panel.ts: the flash toast, without the outbox) on theirs (decision 0075).
    for (const [pathname, file, team] of [
      ['/', 'index.html', false],
      ['/modelos', 'modelos.html', false],
      ['/prefiltro', 'prefiltro.html', false],
      ['/admin', 'admin.html', true],
      ['/auth', 'auth.html', true],
    ] as const) {
      const html = readFileSync(path.join(DIST, file), 'utf8');
      const csp = (await fetch(`${server.url}${pathname}`)).headers.get('content-security-policy') ?? '';
      const inline = [
        ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g),
      ];
      expect(
        inline.some(([, code]) => code?.includes('flash-toast')),
        `${pathname}: the page script`,
      ).toBe(true);
      expect(
        inline.some(([, code]) => code?.includes('leadOutbox')),
        `${pathname}: the visitors' page script ${team ? 'absent' : 'present'}`,
      ).toBe(!team);
      for (const [, code] of inline) {
        const hash = `'sha256-${createHash('sha256')
          .update(code ?? '')
          .digest('base64')}'`;
        expect(csp, `${pathname}: ${code?.slice(0, 60)}`).toContain(hash);
      }
    }
    // `/` loads no script file until the visitor touches something (/modelos has its gallery's).
    expect(readFileSync(path.join(DIST, 'index.html'), 'utf8')).not.toMatch(/<script[^>]*\bsrc=/);
  });

  it('writes on every island its whole module graph, renderer first, every file of it in the build', () => {
    const html = readFileSync(path.join(DIST, 'prefiltro.html'), 'utf8');
    const islands = [...html.matchAll(/<astro-island\b[^>]*>/g)].map(([tag]) => tag);
    expect(islands.length).toBeGreaterThan(0);
    for (const tag of islands) {
      const attribute = (name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
      const graph = (attribute('data-preload') ?? '').split(' ');
      expect(graph[0], tag).toBe(attribute('renderer-url'));
      expect(graph).toContain(attribute('component-url'));
      for (const url of graph) expect(existsSync(path.join(DIST, url)), url).toBe(true);
      // Every static import of every file in the graph is in the graph too.
      for (const url of graph) {
        const code = readFileSync(path.join(DIST, url), 'utf8');
        for (const [, imported] of code.matchAll(STATIC_IMPORT)) {
          expect(graph, `${url} imports ${imported}`).toContain(`/_astro/${imported}`);
        }
      }
    }
  });

  it('logs one line per request', async () => {
    await fetch(`${server.url}/?log-check`);
    // The line can reach this process after the answer: wait for it.
    await expect.poll(() => server.output()).toMatch(/^GET \/ 200 \d+\.\dms$/m);
  });

  /** A GET with one Accept-Encoding, its body as sent (fetch would decode it). */
  function rawGet(pathname: string, encoding: string) {
    const { hostname, port } = new URL(server.url);
    return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get({ hostname, port, path: pathname, headers: { 'accept-encoding': encoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        })
        .on('error', reject);
    });
  }
});
