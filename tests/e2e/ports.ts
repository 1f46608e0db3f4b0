import { execFileSync } from 'node:child_process';

/** The browser suite's ports: the server's, its PostgreSQL's, and the receivers the stories start. */
export interface E2ePorts {
  web: number;
  postgres: number;
  webhook: number;
  whatsapp: number;
  stripe: number;
}

/** Five ports the system hands out as free, all held at once so they differ; printed as JSON. */
const FIND_FREE_PORTS = `
import { createServer } from 'node:net';
const names = ['web', 'postgres', 'webhook', 'whatsapp', 'stripe'];
const servers = await Promise.all(names.map(() => new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
})));
console.log(JSON.stringify(Object.fromEntries(names.map((name, index) => [name, servers[index].address().port]))));
await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
`;

/**
 * Free ports, chosen once per run: the runner finds them when it reads the
 * config and leaves them in E2E_PORTS, which its workers inherit and read
 * back, so every process of the run agrees. A second `npm test` on the same
 * machine gets other ports (never fixed ones).
 */
export function e2ePorts(): E2ePorts {
  if (!process.env.E2E_PORTS) {
    process.env.E2E_PORTS = execFileSync(process.execPath, ['--input-type=module', '-e', FIND_FREE_PORTS], {
      encoding: 'utf8',
    }).trim();
  }
  return JSON.parse(process.env.E2E_PORTS) as E2ePorts;
}
