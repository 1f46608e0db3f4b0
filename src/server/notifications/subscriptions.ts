import type { PushSubscriptionInput } from '../../lib/admin/push.ts';
import type { Queryable } from '../db/database.ts';

/** A member keeps at most this many devices; subscribing one more forgets the oldest. */
export const DEVICES_PER_MEMBER = 10;

/**
 * Stores the device for the member (a device another member used before
 * becomes this one's: the browser has one subscription per site), and
 * forgets the member's oldest devices beyond DEVICES_PER_MEMBER. One statement.
 */
export async function saveSubscription(
  db: Queryable,
  userId: string,
  sessionId: string,
  subscription: PushSubscriptionInput,
) {
  await db.query(
    `WITH saved AS (
       INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, session_id) VALUES ($1, $2, $3, $4, $6)
       ON CONFLICT (endpoint) DO UPDATE
         SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
             session_id = EXCLUDED.session_id, created_at = now()
       RETURNING id
     )
     DELETE FROM push_subscriptions WHERE id IN (
       SELECT id FROM push_subscriptions WHERE user_id = $1 AND id NOT IN (SELECT id FROM saved)
       ORDER BY created_at DESC OFFSET $5
     )`,
    [
      userId,
      subscription.endpoint,
      subscription.keys.p256dh,
      subscription.keys.auth,
      DEVICES_PER_MEMBER - 1,
      sessionId,
    ],
  );
}

/** The member's device stops receiving (only their own). */
export async function forgetSubscription(db: Queryable, userId: string, endpoint: string) {
  await db.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [userId, endpoint]);
}
