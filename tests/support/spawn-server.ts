import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<RunningServer>();
const pending = new Set<{ stop(): unknown }>();

/**
 * Starts the real local server (`src/server/local/serve.ts`) in its own
 * process on a free port, on the DATABASE_URL of this process unless `env`
 * says otherwise, with the lead rate limit off. The server stops by itself
 * when this process is gone, however it ended (EXIT_WITH_PARENT).
 * `script` runs another server the same way (it prints `Listening on <url>`
 * and honours PORT, HOST and EXIT_WITH_PARENT), e.g. the Netlify emulator's;
 * `root` runs it from another copy of the project.
 */
export async function spawnServer(
  env: Record<string, string | undefined> = {},
  { script = 'src/server/local/serve.ts', root = ROOT } = {},
): Promise<RunningServer> {
  const environment: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LEAD_RATE_LIMIT: '0',
    EXIT_WITH_PARENT: '1',
    ...env,
  };
  // A variable given as undefined is removed (e.g. DATABASE_URL, to use the embedded database).
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name];
  // SERVER_NODE_OPTIONS: flags for the server's node only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (NODE_OPTIONS refuses them).
  const flags = process.env.SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, path.join(root, script)], {
    cwd: root,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // Tracked from the start: one that never says it is listening is stopped too.
  const starting = { stop: () => (child.exitCode === null && child.signalCode === null ? child.kill() : false) };
  pending.add(starting);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 90_000);
    // Looks for the address until it appears, then stops (the output keeps growing under load).
    const onData = () => {
      const match = /Listening on (http:\/\/\S+?)\/?$/m.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });

  const server: RunningServer = {
    url,
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  pending.delete(starting);
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
}

/** Stops every server this process started that is still running. */
export async function stopAllServers(): Promise<void> {
  for (const starting of pending) starting.stop();
  await Promise.all([...running].map((server) => server.stop()));
}

/** POSTs JSON to the server, as a browser's fetch would. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
