/**
 * `npm run editor`: the content editor on this machine, offline, over this
 * checkout's files (decisions 0038, 0051). Serves /editor, built with the
 * local mode on, at http://127.0.0.1:4400/editor, and answers its proxy's
 * requests (decap-server's file-system middleware, run here) at /api/v1 of
 * the same origin: only that page may use it (exact Host and Origin), and it
 * reads and writes only the content (src/editor/local-proxy.ts). Saving
 * writes the files; `npm run dev` shows the pages with them, and a commit
 * publishes them. Ctrl+C stops it.
 *
 * EDITOR_PORT (4400; 0 takes a free one, printed) and EDITOR_ROOT (this
 * checkout) change where; the browser story points EDITOR_ROOT at a copy.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/data/content-check.ts';
import { buildEditor } from '../src/editor/build.ts';
import { contentProblem, editorOrigin, listedContent, requestOriginProblem } from '../src/editor/local-proxy.ts';
import { EDITOR_LOCAL_CSP, staticHeadersFor } from '../src/server/http/headers.ts';

const root = path.resolve(process.env.EDITOR_ROOT ?? PROJECT_ROOT);
const outDir = mkdtempSync(path.join(os.tmpdir(), 'casas-editor-'));

type Next = (error?: unknown) => void;
type Handler = (request: IncomingMessage & { body?: unknown }, response: ServerResponse, next: Next) => void;
type ErrorHandler = (error: unknown, request: IncomingMessage, response: ServerResponse, next: Next) => void;
interface ExpressApp {
  (request: IncomingMessage, response: ServerResponse): void;
  disable(setting: string): void;
  use(...handlers: (Handler | ErrorHandler)[]): void;
  post(path: string, ...handlers: Handler[]): void;
}

/** decap-server's own express (its dependency), and its file-system middleware without its command line. */
const decapRequire = createRequire(createRequire(import.meta.url).resolve('decap-server'));
const express = decapRequire('express') as { (): ExpressApp; json(options: { limit: string }): Handler };
const { registerLocalFs } = decapRequire('./middlewares.js') as {
  registerLocalFs(app: ExpressApp, options: { logLevel?: string }): Promise<void>;
};

const FILES: Record<string, { file: string; type: string }> = {
  '/editor': { file: 'editor.html', type: 'text/html; charset=utf-8' },
  '/editor/editor.js': { file: 'editor/editor.js', type: 'text/javascript; charset=utf-8' },
  '/editor/preview.css': { file: 'editor/preview.css', type: 'text/css; charset=utf-8' },
};

let origin = '';
let ready = false;
const refuse = (response: ServerResponse, status: number, error: string) =>
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error }));

const app = express();
app.disable('x-powered-by');
// Before anything of decap-server's (its CORS answers any localhost origin): the editor's page, or nobody.
const preparing = 'El editor se está preparando; vuelve a intentarlo en unos segundos.';
const guard: Handler = (request, response, next) => {
  if (!origin) {
    refuse(response, 503, preparing);
    return;
  }
  const problem = requestOriginProblem(origin, request.headers, request.method ?? 'GET');
  if (problem) refuse(response, 403, problem);
  else if (!ready) refuse(response, 503, preparing);
  else next();
};
app.use(guard);
// An upload's image is at most 1.5 MB (base64: 2 MB); a data file is far less.
app.post('/api/v1', express.json({ limit: '4mb' }), (request, response, next) => {
  const problem = contentProblem(root, request.body);
  if (problem) {
    refuse(response, 403, problem);
    return;
  }
  // A listing's answer keeps the content only (links out of it left out): decap-server answers with json().
  const answered = response as ServerResponse & { json?(body: unknown): unknown };
  const json = answered.json?.bind(answered);
  if (json) answered.json = (answer: unknown) => json(listedContent(root, request.body, answer));
  next();
});
process.env.GIT_REPO_DIRECTORY = root;
await registerLocalFs(app, { logLevel: process.env.EDITOR_LOG_LEVEL ?? 'warn' });
const files: Handler = (request, response) => {
  const { pathname } = new URL(request.url ?? '/', origin);
  if (pathname === '/' || pathname === '/editor/') {
    response.writeHead(302, { Location: '/editor' }).end();
    return;
  }
  const target = FILES[pathname];
  if (!target || request.method !== 'GET') {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('No existe.');
    return;
  }
  response.writeHead(200, {
    ...staticHeadersFor(pathname),
    'Content-Security-Policy': EDITOR_LOCAL_CSP,
    // No sign-in pop-up here (the deployed editor's reason for same-origin-allow-popups).
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Content-Type': target.type,
  });
  response.end(readFileSync(path.join(outDir, target.file)));
};
app.use(files);

// A body that is not JSON, or too big: a short Spanish answer, not express's page with a stack trace
// (express knows an error handler by its four parameters).
const unreadable: ErrorHandler = (_error, _request, response, _next) =>
  refuse(response, 400, 'El editor mandó una petición que no se entiende.');
app.use(unreadable);

const server = createServer(app);
function stop() {
  server.close();
  server.closeAllConnections();
  rmSync(outDir, { recursive: true, force: true });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// The page names its proxy by its address, so the port is taken first (a free one with EDITOR_PORT=0), then it is built.
await new Promise<void>((resolve) => server.listen(Number(process.env.EDITOR_PORT ?? 4400), '127.0.0.1', resolve));
origin = editorOrigin((server.address() as AddressInfo).port);
await buildEditor(outDir, { branch: 'main', localProxy: `${origin}/api/v1` });
ready = true;
console.log(`Editor de contenido: ${origin}/editor (archivos de ${root}). Ctrl+C para salir.`);
