import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { SpawnerEvent, SpawnerRequest } from './spawner-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What the tests use of a server's process, whether started here or by the worker's spawner. */
export interface ServerProcess {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdout: {
    on(event: 'data', listener: (chunk: string) => void): unknown;
    off(event: 'data', listener: (chunk: string) => void): unknown;
    destroy(): unknown;
  };
  readonly stderr: { on(event: 'data', listener: (chunk: string) => void): unknown; destroy(): unknown };
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null) => void): unknown;
}

export interface RunningServer {
  url: string;
  process: ServerProcess;
  /** Everything the server printed so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A child's output as the tests read it; `destroy()` closes the child's own pipes. */
class RelayedOutput extends EventEmitter {
  private readonly closePipes: () => void;
  constructor(closePipes: () => void) {
    super();
    this.closePipes = closePipes;
  }
  destroy(): void {
    this.closePipes();
  }
}

/** A process started by the worker's spawner (tests/support/spawner-process.ts), seen as a child of ours. */
class RelayedProcess extends EventEmitter implements ServerProcess {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdout: RelayedOutput;
  readonly stderr: RelayedOutput;

  private readonly spawner: WorkerSpawner;
  readonly id: number;

  constructor(spawner: WorkerSpawner, id: number) {
    super();
    this.spawner = spawner;
    this.id = id;
    const closePipes = () => spawner.send({ type: 'destroy', id });
    this.stdout = new RelayedOutput(closePipes);
    this.stderr = new RelayedOutput(closePipes);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exitCode !== null || this.signalCode !== null) return false;
    this.spawner.send({ type: 'kill', id: this.id, signal });
    return true;
  }

  /** What the spawner says of this child. */
  receive(event: SpawnerEvent): void {
    if (event.type === 'spawned') this.pid = event.pid;
    else if (event.type === 'output') this[event.stream].emit('data', event.text);
    else if (event.type === 'exit') this.ended(event.code, event.signal);
    else this.ended(null, null);
  }

  ended(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/**
 * One spawner per Vitest worker, kept across its files (our modules are evaluated anew for each file, the
 * worker's global object is not). Its channel holds the worker's event loop only while a child runs.
 */
class WorkerSpawner {
  private readonly process: ChildProcess;
  private readonly children = new Map<number, RelayedProcess>();
  private nextId = 1;
  alive = true;

  constructor() {
    this.process = spawn(process.execPath, [path.join(import.meta.dirname, 'spawner-process.ts')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.process.unref();
    this.process.channel?.unref();
    this.process.on('message', (event: SpawnerEvent) => {
      const child = this.children.get(event.id);
      child?.receive(event);
      if (event.type === 'exit' || event.type === 'error') this.forget(event.id);
    });
    this.process.once('exit', () => {
      this.alive = false;
      // Its children are out of reach from here (each ends by itself: EXIT_WITH_PARENT); to the tests they are
      // gone as if killed, so a `stop()` or a start that waits for them does not wait forever.
      for (const child of this.children.values()) child.ended(null, 'SIGKILL');
      this.children.clear();
    });
  }

  start(command: string, args: string[], cwd: string, env: Record<string, string>): RelayedProcess {
    const id = this.nextId++;
    const child = new RelayedProcess(this, id);
    this.children.set(id, child);
    if (this.children.size === 1) this.process.channel?.ref();
    this.send({ type: 'spawn', id, command, args, cwd, env });
    return child;
  }

  send(request: SpawnerRequest): void {
    if (this.alive) this.process.send(request);
  }

  private forget(id: number): void {
    this.children.delete(id);
    if (this.children.size === 0) this.process.channel?.unref();
  }
}

function workerSpawner(): WorkerSpawner {
  const worker = globalThis as { testSpawner?: WorkerSpawner };
  if (!worker.testSpawner?.alive) worker.testSpawner = new WorkerSpawner();
  return worker.testSpawner;
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
  const args = [...flags, path.join(root, script)];
  // Inside Vitest, through the worker's spawner (decision 0086); a benchmark starts its server itself.
  const child: ServerProcess = process.env.VITEST
    ? workerSpawner().start(process.execPath, args, root, environment as Record<string, string>)
    : spawn(process.execPath, args, { cwd: root, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
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
