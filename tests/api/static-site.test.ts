import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
    const pageRule = netlifyRules().get('/*') ?? {};
    expect(Object.keys(pageRule).length).toBeGreaterThan(4);
    for (const [name, value] of Object.entries(pageRule)) expect(response.headers.get(name), name).toBe(value);
    // Pages are revalidated on every visit, as dist/_headers tells Netlify.
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(netlifyRules().get('/modelos')).toEqual({ 'cache-control': 'public, max-age=0, must-revalidate' });
    expect(netlifyRules().get('/')).toEqual({ 'cache-control': 'public, max-age=0, must-revalidate' });
  });

  it('sends the security headers on a page, an asset and a function answer', async () => {
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
      expect(response.headers.get('cross-origin-opener-policy'), kind).toBe('same-origin');
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

  it('logs one line per request', async () => {
    await fetch(`${server.url}/?log-check`);
    expect(server.output()).toMatch(/^GET \/ 200 \d+\.\dms$/m);
  });
});
