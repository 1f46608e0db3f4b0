/**
 * The built site served by `@netlify/dev`, Netlify's own emulator (static
 * files of `dist/`, `_headers`, redirects, the functions of
 * `netlify/functions/` routed by their `config.path`), on a real port.
 * Started by tests/support/netlify-dev.ts through spawnServer: it honours
 * PORT, HOST and EXIT_WITH_PARENT and prints `Listening on <url>`.
 *
 * Two things here are ours, not the emulator's:
 * - The emulator answers nothing for a path that no file, rule or function
 *   claims. Netlify's CDN (and netlify-cli) then serve the publish folder's
 *   `404.html` with status 404; so does this server, through the emulator's
 *   own static handler (with the header rules of `/404.html`, i.e. `/*`).
 * - Every answer says what the emulator matched in `X-Emulator-Match`
 *   (static, function, redirect, or none for the 404 above), so a test can
 *   tell that a path was served by a function or by a file.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetlifyDev } from '@netlify/dev';
import { FunctionsHandler } from '@netlify/functions-dev';
import { listFunctions } from '@netlify/zip-it-and-ship-it';
import { onParentExit } from '../../src/server/local/lifetime.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const parent = process.ppid; // read now: a parent that dies during start-up is noticed too
const port = Number(process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

// A function that the emulator cannot list (e.g. a `config.path` Netlify cannot read statically)
// rejects inside the emulator, where nobody awaits it: say so and stop, as a deploy would fail.
process.on('unhandledRejection', (error) => {
  console.error('netlify-dev-server: unhandled rejection:', error);
  process.exit(1);
});

/**
 * Each function bundled once, when it is first called, as a deploy bundles it once: the emulator
 * bundles all of them in the background at start (49 bundles nobody calls, with a file watcher on
 * each one's sources) and again on every call. That was most of this file's CPU in `npm test`
 * (issue #39). Scheduled functions are still bundled at start: the emulator learns a schedule set
 * in the source only from a bundle, before the scheduled call that needs it.
 */
await mkdir(path.join(ROOT, '.netlify/functions-serve'), { recursive: true });
const BUILT_ONCE = await mkdtemp(path.join(ROOT, '.netlify/functions-serve/once-'));

async function bundleOnlyWhatIsCalled(): Promise<void> {
  const listed = await listFunctions([path.join(ROOT, 'netlify/functions')], { parseISC: true });
  const scheduled = new Set(listed.filter((found) => found.schedule).map((found) => found.name));
  // The registry and the function classes are not exported: reached through a handler that lists nothing.
  const probe = new FunctionsHandler({
    config: { get: () => ({}) },
    destPath: path.join(ROOT, '.netlify/functions-serve'),
    projectRoot: ROOT,
    settings: {},
  } as unknown as ConstructorParameters<typeof FunctionsHandler>[0]);
  type Built = { name: string; buildData?: unknown; build(options: unknown): Promise<unknown> };
  type Registry = {
    buildFunctionAndWatchFiles(func: Built, firstLoad?: boolean): Promise<void>;
    registerFunction(name: string, func: Built, isReload?: boolean): Promise<void>;
  };
  const registry = Object.getPrototypeOf((probe as unknown as { registry: object }).registry) as Registry;
  const buildAtStart = registry.buildFunctionAndWatchFiles;
  registry.buildFunctionAndWatchFiles = function (func, firstLoad) {
    return scheduled.has(func.name) ? buildAtStart.call(this, func, firstLoad) : Promise.resolve();
  };
  const register = registry.registerFunction;
  const patched = new WeakSet<object>();
  registry.registerFunction = function (name, func, isReload) {
    const functionClass = Object.getPrototypeOf(func) as Built;
    if (!patched.has(functionClass)) {
      patched.add(functionClass);
      const build = functionClass.build;
      const builds = new WeakMap<object, Promise<unknown>>();
      // Into a folder of this server's own: the emulator's per-call folder is removed after its call.
      functionClass.build = function (options) {
        let built = builds.get(this);
        if (!built) {
          built = build.call(this, { ...(options as object), buildDirectory: BUILT_ONCE });
          builds.set(this, built);
        }
        return built;
      };
    }
    return register.call(this, name, func, isReload);
  };
}
await bundleOnlyWhatIsCalled();

const dev = new NetlifyDev({
  projectRoot: ROOT,
  // .netlify/ is ignored already; the emulator would otherwise edit .gitignore.
  skipGitignore: true,
  functions: { enabled: true },
  redirects: { enabled: true },
  staticFiles: { enabled: true },
  headers: { enabled: true },
  // netlify.toml's [build.environment], as the emulator applies it (variables already set win).
  environmentVariables: { enabled: true },
  // What the site does not use, or what would need the network or a linked site.
  edgeFunctions: { enabled: false },
  blobs: { enabled: false },
  database: { enabled: false },
  geolocation: { enabled: false },
  images: { enabled: false },
  aiGateway: { enabled: false },
});

async function send(res: http.ServerResponse, response: Response, match: string): Promise<void> {
  const headers: Record<string, string | string[]> = { 'x-emulator-match': match };
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, headers);
  if (response.body) await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
  else res.end();
}

async function notFoundPage(origin: string): Promise<Response> {
  const page = await dev.handle(new Request(new URL('/404.html', origin)));
  if (!page) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
  return new Response(page.body, { status: 404, headers: page.headers });
}

/**
 * The emulator bundles a function again on every call, into one folder
 * shared by every call (@netlify/functions-dev's `globalBuildDirectory`):
 * two calls at once rebuild it under each other, and one of them answered
 * 500 or failed inside the function now and then (issue #25). Netlify runs
 * a deployed bundle and has no such race, so this server hands the emulator
 * one request at a time; an answer's body still streams after its turn.
 */
let turn: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const mine = turn.then(work, work);
  turn = mine.catch(() => undefined);
  return mine;
}

const server = http.createServer(async (req, res) => {
  try {
    // What Netlify's CDN and netlify-cli tell a function about the visitor (context.ip).
    req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    const match = await oneAtATime(() => dev.handleAndIntrospectNodeRequest(req));
    if (match) await send(res, match.response, match.type);
    else await send(res, await notFoundPage(`http://${req.headers.host ?? `${host}:${port}`}`), 'none');
  } catch (error) {
    console.error('netlify-dev-server: request failed:', error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end();
  }
});

let stopping: Promise<void> | undefined;
function stop(): Promise<void> {
  stopping ??= (async () => {
    server.close();
    server.closeAllConnections();
    await dev.stop();
    await rm(BUILT_ONCE, { recursive: true, force: true });
    process.exit(0);
  })();
  return stopping;
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
if (process.env.EXIT_WITH_PARENT === '1') onParentExit(() => void stop(), parent);

await dev.start();
// The first request waits for the emulator's scan of netlify/functions/: a function it cannot
// list fails here, before the tests start, with the emulator's message.
await dev.handle(new Request(`http://${host}/`));
server.listen(port, host, () => {
  const address = server.address() as { port: number };
  console.log(`Listening on http://${host}:${address.port}`);
});
