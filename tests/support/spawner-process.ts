/**
 * A small process that starts the test servers for a Vitest worker (tests/support/spawn-server.ts), so the
 * worker itself never forks: on this machine a fork marks every page of the forking process copy-on-write,
 * and the worker's next writes to its heap (its garbage collector's, mostly) each fault once. For a worker of
 * about 1 GB that was 0.3 to 1.3 s of CPU per server started (decision 0086). This process stays small, so
 * its forks cost little.
 *
 * Messages from the worker: `spawn`, `kill`, `destroy` (closes a child's output pipes). To the worker:
 * `spawned`, `output`, `exit`, `error`, in the order they happen. When the worker goes (its channel closes),
 * the children are told to stop and this process ends; they also watch their parent (EXIT_WITH_PARENT).
 */
import { type ChildProcess, spawn } from 'node:child_process';

export type SpawnerRequest =
  | { type: 'spawn'; id: number; command: string; args: string[]; cwd: string; env: Record<string, string> }
  | { type: 'kill'; id: number; signal: NodeJS.Signals }
  | { type: 'destroy'; id: number };

export type SpawnerEvent =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'output'; id: number; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { type: 'error'; id: number; message: string };

const children = new Map<number, ChildProcess>();
const tell = (event: SpawnerEvent) => process.send?.(event);

process.on('message', (request: SpawnerRequest) => {
  if (request.type === 'spawn') {
    const { id } = request;
    const child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.set(id, child);
    child.once('spawn', () => tell({ type: 'spawned', id, pid: child.pid ?? 0 }));
    child.once('error', (error) => tell({ type: 'error', id, message: error.message }));
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].setEncoding('utf8');
      child[stream].on('data', (text: string) => tell({ type: 'output', id, stream, text }));
    }
    child.once('exit', (code, signal) => {
      children.delete(id);
      tell({ type: 'exit', id, code, signal });
    });
  } else if (request.type === 'kill') {
    children.get(request.id)?.kill(request.signal);
  } else {
    const child = children.get(request.id);
    child?.stdout?.destroy();
    child?.stderr?.destroy();
  }
});

process.once('disconnect', () => {
  for (const child of children.values()) child.kill('SIGTERM');
  process.exitCode = 0;
});
