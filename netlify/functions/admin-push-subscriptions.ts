import type { Config } from '@netlify/functions';
import { PUSH_OFF, pushSubscriptionSchema, pushUnsubscribeSchema } from '../../src/lib/admin/push.ts';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';
import { isPushServiceEndpoint, PUSH_SERVICE_UNKNOWN } from '../../src/server/notifications/push-endpoint.ts';
import { forgetSubscription, saveSubscription } from '../../src/server/notifications/subscriptions.ts';

const PATH = '/api/admin/push-subscriptions';

/**
 * A member's device for Web Push (members, from our own pages):
 * POST {endpoint, keys: {p256dh, auth}}: 201, this device gets the member's reminders (409 when push is off;
 *      400 when the endpoint is not a browser's push service: push-endpoint.ts, decision 0052);
 * DELETE {endpoint}: 204, it stops.
 */
export default endpoints('admin-push-subscriptions', [
  {
    method: 'POST',
    path: PATH,
    access: 'member',
    async work({ db, user, body }) {
      const subscription = await body(pushSubscriptionSchema, 'Revisa la suscripción.', 4096);
      const push = getConfig().push;
      if (!push) return jsonError(409, PUSH_OFF);
      if (!isPushServiceEndpoint(subscription.endpoint, push.testService)) {
        return jsonError(400, PUSH_SERVICE_UNKNOWN, { fields: { endpoint: PUSH_SERVICE_UNKNOWN } });
      }
      await saveSubscription(db, user.id, user.sessionId, subscription);
      return empty(201);
    },
  },
  {
    method: 'DELETE',
    path: PATH,
    access: 'member',
    async work({ db, user, body }) {
      const { endpoint } = await body(pushUnsubscribeSchema, 'Revisa la suscripción.', 4096);
      await forgetSubscription(db, user.id, endpoint);
      return empty(204);
    },
  },
]);

export const config: Config = { path: '/api/admin/push-subscriptions' };
