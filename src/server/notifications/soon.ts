import { getConfig } from '../config.ts';
import { withDatabase } from '../db/database.ts';
import { logJson } from '../log.ts';
import { deliver } from './deliver.ts';

/**
 * Sends a lead's notifications right after its answer (Netlify's
 * `context.waitUntil`), without waiting for the next minute's drain. Their
 * jobs stay queued: one that finds its delivery sent does nothing, and one
 * cut short by the platform is finished by the drain.
 */
export async function deliverSoon(deliveryIds: readonly string[]): Promise<void> {
  const config = getConfig();
  try {
    // allSettled: one delivery's database error must not close the pool under the others'
    // final updates (they would stay `sending`, and be sent again after the lock timeout).
    const results = await withDatabase(
      (db) => Promise.allSettled(deliveryIds.map((id) => deliver(db, id, config))),
      config,
    );
    for (const result of results) {
      if (result.status === 'rejected') {
        logJson('warn', { event: 'notification_soon_failed', error: (result.reason as Error).message });
      }
    }
  } catch (error) {
    logJson('warn', { event: 'notification_soon_failed', error: (error as Error).message });
  }
}
