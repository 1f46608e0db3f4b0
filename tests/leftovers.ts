/**
 * Fails when a process of the project's is still running: the last step of
 * `.ci/run`, after the test command (`npm run check:leftovers` by hand).
 */
import path from 'node:path';
import { projectProcesses } from './support/processes.ts';

const root = path.resolve(import.meta.dirname, '..');
// A process that is ending as we look gets a moment to finish.
let left = projectProcesses(root);
for (let waited = 0; left.length > 0 && waited < 5_000; waited += 250) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  left = projectProcesses(root);
}
if (left.length > 0) {
  console.error(`Processes of the project still running after the tests (${left.length}):`);
  for (const { pid, command } of left) console.error(`  ${pid} ${command.slice(0, 200)}`);
  process.exitCode = 1;
}
