import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export interface ProcessInfo {
  pid: number;
  command: string;
}

function read(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // gone meanwhile, or not ours to read
  }
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** Running processes whose environment has `name=value` (a marker a test gave its children). */
export function processesWithEnv(name: string, value: string): ProcessInfo[] {
  const wanted = `${name}=${value}`;
  return allPids()
    .filter((pid) => pid !== process.pid && read(pid, 'environ').split('\0').includes(wanted))
    .map((pid) => ({ pid, command: read(pid, 'cmdline').replaceAll('\0', ' ').trim() }));
}

/** This process and every process above it: whoever is asking is not a leftover. */
function ancestors(): Set<number> {
  const chain = new Set<number>();
  for (let pid = process.pid; pid > 1 && !chain.has(pid); ) {
    chain.add(pid);
    pid = Number(/^\d+ \(.*\) \S (\d+)/s.exec(read(pid, 'stat'))?.[1] ?? 0);
  }
  return chain;
}

/**
 * Processes that run the project's code or binaries (a local server, a
 * PostgreSQL from node_modules, a watchdog), or a node, postgres or browser
 * working inside its folder.
 */
export function projectProcesses(root: string): ProcessInfo[] {
  const mine = ancestors();
  const prefix = path.resolve(root) + path.sep;
  const found: ProcessInfo[] = [];
  for (const pid of allPids()) {
    if (mine.has(pid)) continue;
    const command = read(pid, 'cmdline').replaceAll('\0', ' ').trim();
    if (!command) continue; // kernel threads and zombies
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`) + path.sep;
    } catch {}
    // A shell or an editor open in the folder is somebody's, not a leftover: inside the folder only
    // the programs the tests start count (node, postgres, a browser).
    const program = path.basename(command.split(' ')[0] ?? '');
    const started = /^(node|postgres|chrom(e|ium)[\w-]*|headless_shell)$/.test(program);
    if (command.includes(prefix) || (cwd.startsWith(prefix) && started)) found.push({ pid, command });
  }
  return found;
}
