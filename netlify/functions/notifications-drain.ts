import type { Config } from '@netlify/functions';
import { logged } from '../../src/server/http/logging.ts';
import { empty } from '../../src/server/http/responses.ts';
import { drainJobs } from '../../src/server/tasks.ts';

/**
 * Every minute on Netlify: sends the notifications that are due (new leads,
 * retries, the 8:00 summary, account e-mails refused at first), each channel
 * with its own workers. A scheduled function has 30 seconds: the drain stops
 * taking work after 10 and finishes what it started (each send at most 15 s).
 * The local server does not route it: its own worker runs in-process.
 */
export default logged('notifications-drain', async () => {
  await drainJobs(10_000);
  return empty(204);
});

export const config: Config = { schedule: '* * * * *' };
