import type { Config } from '@netlify/functions';
import type { RemindersView } from '../../src/lib/admin/push.ts';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';
import { dueReminders } from '../../src/server/notifications/reminders.ts';

/**
 * GET /api/admin/reminders (members): the panel's badge (the member's due next
 * contacts) and the VAPID public key its browser subscribes with (null when push is off).
 */
export default endpoints('admin-reminders', [
  {
    method: 'GET',
    path: '/api/admin/reminders',
    access: 'member',
    async work({ db, user }) {
      const view: RemindersView = {
        due: await dueReminders(db, user),
        pushKey: getConfig().push?.publicKey ?? null,
      };
      return json(200, view, { 'Cache-Control': 'no-store' });
    },
  },
]);

export const config: Config = { path: '/api/admin/reminders' };
