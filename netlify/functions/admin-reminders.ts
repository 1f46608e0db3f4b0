import type { Config } from '@netlify/functions';
import type { RemindersView } from '../../src/lib/admin/push.ts';
import { getConfig } from '../../src/server/config.ts';
import { defaultScope, overdueCount } from '../../src/server/contacts/today.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';

/**
 * GET /api/admin/reminders (members): the panel's badge ("Vencidos" of the scope
 * "Hoy" opens on: the team's for an administrator, an adviser's own; decision 0053)
 * and the VAPID public key its browser subscribes with (null when push is off).
 */
export default endpoints('admin-reminders', [
  {
    method: 'GET',
    path: '/api/admin/reminders',
    access: 'member',
    async work({ db, user }) {
      const scope = defaultScope(user);
      const view: RemindersView = {
        due: await overdueCount(db, scope),
        scope: scope.scope,
        pushKey: getConfig().push?.publicKey ?? null,
      };
      return json(200, view, { 'Cache-Control': 'no-store' });
    },
  },
]);

export const config: Config = { path: '/api/admin/reminders' };
