import type { Config } from '@netlify/functions';
import {
  CHANNEL_OFF,
  DELIVERY_NOT_RETRYABLE,
  DELIVERY_SUPERSEDED,
  testNotificationSchema,
} from '../../src/lib/admin/notifications.ts';
import { getConfig } from '../../src/server/config.ts';
import { uuidSegment } from '../../src/server/http/admin-handler.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { notificationsOverview } from '../../src/server/notifications/overview.ts';
import { deliverSoon } from '../../src/server/notifications/soon.ts';
import { channelOn } from '../../src/server/outbox/channels.ts';
import { retryDelivery, sendTest } from '../../src/server/outbox/deliveries.ts';

const BASE = '/api/admin/notifications';

/**
 * GET  /api/admin/notifications: channels (never their secrets), last delivery, recent failures.
 * POST /api/admin/notifications/test {channel}: 202 {id}, one test message through that channel.
 * POST /api/admin/notifications/{deliveryId}/retry: 202, "Reintentar" a failed or waiting delivery.
 */
export default endpoints('admin-notifications', [
  {
    method: 'GET',
    path: BASE,
    access: 'admin',
    work: async ({ db }) => json(200, await notificationsOverview(db, getConfig().notifications)),
  },
  {
    method: 'POST',
    path: `${BASE}/test`,
    access: 'admin',
    async work({ db, context, body }) {
      const { notifications } = getConfig();
      const { channel } = await body(testNotificationSchema, 'Elige el canal de la prueba.');
      if (!channelOn(channel, notifications)) return jsonError(409, CHANNEL_OFF);
      const id = await sendTest(db, channel);
      // On Netlify it leaves right after the answer, not at the next minute's drain.
      context.waitUntil?.(deliverSoon([id]));
      return json(202, { id });
    },
  },
  {
    method: 'POST',
    path: `${BASE}/:id/retry`,
    access: 'admin',
    async work({ db, url, context }) {
      const id = uuidSegment(url, 0);
      if (!id) return jsonError(404, 'No encontramos esta notificación.');
      const result = await retryDelivery(db, id, getConfig().notifications);
      if (result === 'missing') return jsonError(404, 'No encontramos esta notificación.');
      if (result === 'not-retryable') return jsonError(409, DELIVERY_NOT_RETRYABLE);
      if (result === 'superseded') return jsonError(409, DELIVERY_SUPERSEDED);
      if (result === 'channel-off') return jsonError(409, CHANNEL_OFF);
      context.waitUntil?.(deliverSoon([id]));
      return json(202, { id });
    },
  },
]);

// Literals: Netlify's bundler reads `config` statically and refuses expressions.
export const config: Config = {
  path: ['/api/admin/notifications', '/api/admin/notifications/test', '/api/admin/notifications/:id/retry'],
};
