/**
 * `npm run editor`: the content editor on this machine, offline, over this
 * checkout's files (decision 0038). Builds /editor with the local mode on,
 * starts decap-cms's proxy (decap-server, which reads and writes src/data and
 * src/assets) and serves the editor at http://127.0.0.1:4400/editor. Saving
 * writes the files; `npm run dev` shows the pages with them, and a commit
 * publishes them. Ctrl+C stops both.
 *
 * EDITOR_PORT (4400; the proxy takes the next port) and EDITOR_ROOT (this
 * checkout) change where; the browser story points EDITOR_ROOT at a copy.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/data/content-check.ts';
import { buildEditor } from '../src/editor/build.ts';
import { LOCAL_HEADER_RULES, staticHeadersFor } from '../src/server/http/headers.ts';

const port = Number(process.env.EDITOR_PORT ?? 4400);
const proxyPort = port + 1;
const root = path.resolve(process.env.EDITOR_ROOT ?? PROJECT_ROOT);
const outDir = mkdtempSync(path.join(os.tmpdir(), 'casas-editor-'));

await buildEditor(outDir, { branch: 'main', localProxy: `http://127.0.0.1:${proxyPort}/api/v1` });

const proxyScript = createRequire(import.meta.url).resolve('decap-server/dist/index.js');
const proxy = spawn(process.execPath, [proxyScript], {
  cwd: root,
  env: { ...process.env, PORT: String(proxyPort), BIND_HOST: '127.0.0.1', GIT_REPO_DIRECTORY: root, MODE: 'fs' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

const FILES: Record<string, { file: string; type: string }> = {
  '/editor': { file: 'editor.html', type: 'text/html; charset=utf-8' },
  '/editor/editor.js': { file: 'editor/editor.js', type: 'text/javascript; charset=utf-8' },
  '/editor/preview.css': { file: 'editor/preview.css', type: 'text/css; charset=utf-8' },
};

const server = createServer((request, response) => {
  const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (pathname === '/' || pathname === '/editor/') {
    response.writeHead(302, { Location: '/editor' }).end();
    return;
  }
  const target = FILES[pathname];
  if (!target) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('No existe.');
    return;
  }
  // The local mode's policy: the deployed one and this proxy on 127.0.0.1.
  response.writeHead(200, { ...staticHeadersFor(pathname, LOCAL_HEADER_RULES), 'Content-Type': target.type });
  response.end(readFileSync(path.join(outDir, target.file)));
});
/** Stops both, and exits once the proxy has (its port is free for the next `npm run editor`). */
function stop() {
  server.close();
  rmSync(outDir, { recursive: true, force: true });
  if (proxy.exitCode !== null || proxy.signalCode !== null) process.exit(0);
  proxy.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
proxy.on('exit', (code) => {
  if (code) console.error(`El proxy del editor (decap-server) terminó con el código ${code}.`);
  stop();
});

/** True once something accepts connections on 127.0.0.1:`target`. */
const accepting = (target: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(target, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * The editor looks for the proxy once, when it opens: it is announced (and
 * served) only when the proxy answers, or an editor opened too early would
 * not find it and ask for GitHub instead (seen in the browser story on a busy machine).
 */
const PROXY_START_BOUND_MS = 120_000;
const startedAt = Date.now();
while (!(await accepting(proxyPort))) {
  if (proxy.exitCode !== null) break; // its exit handler above says why and stops
  if (Date.now() - startedAt > PROXY_START_BOUND_MS) {
    console.error(`El proxy del editor (decap-server) no respondió en el puerto ${proxyPort}.`);
    proxy.kill('SIGTERM');
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

server.listen(port, '127.0.0.1', () => {
  console.log(`Editor de contenido: http://127.0.0.1:${port}/editor (archivos de ${root}). Ctrl+C para salir.`);
});
