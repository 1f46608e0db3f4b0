import type { Task } from 'graphile-worker';
import { publicSiteUrl, type ServerConfig } from '../config.ts';
import { type Database, withDatabase } from '../db/database.ts';
import type { JobSource } from '../jobs/pool.ts';
import { logJson } from '../log.ts';
import {
  CONVERSIONS_TASK,
  configuredPairs,
  type Destination,
  recordDue,
  requeueConsented,
  sendDue,
} from './conversions.ts';

/** Batches one run sends at most per destination (100 each); the next upkeep queues the rest. */
const BATCHES_PER_RUN = 10;

/**
 * The conversions' background work (issue #43, decision 0072): the queue's
 * upkeep (every half minute locally, each minute's drain on Netlify) records
 * what happened and, when something is due, queues one send job (its key
 * keeps it one); the job sends each destination's due conversions on a lane
 * of its own, so a slow ad platform never holds up a lead's notification.
 */
export const conversionJobs: JobSource = {
  lanes(config) {
    const pairs = configuredPairs(config.conversions);
    if (pairs.length === 0) return [];
    const destinations = [...new Set(pairs.map(([destination]) => destination))] as Destination[];
    const send: Task = async () => {
      await withDatabase(async (db) => {
        for (const destination of destinations) {
          let settled = 0;
          for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
            const count = await sendDue(db, config.conversions, destination, { siteUrl: publicSiteUrl(config) });
            settled += count;
            if (count === 0) break;
          }
          if (settled > 0) logJson('info', { event: 'ad_conversions_sent', destination, settled });
        }
      }, config);
    };
    return [{ channel: 'conversions', tasks: { [CONVERSIONS_TASK]: send } }];
  },
  async maintain(db: Database, config: ServerConfig) {
    if (configuredPairs(config.conversions).length === 0) return;
    await recordDue(db, config.conversions);
    await requeueConsented(db);
    await db.query(
      `SELECT graphile_worker.add_job($1, '{}'::json, max_attempts => 1, job_key => 'ad_conversions')
       WHERE EXISTS (SELECT 1 FROM ad_conversions WHERE status = 'pendiente' AND next_attempt_at <= now())`,
      [CONVERSIONS_TASK],
    );
  },
};
