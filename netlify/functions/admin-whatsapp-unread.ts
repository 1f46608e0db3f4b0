import type { Config } from '@netlify/functions';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json } from '../../src/server/http/responses.ts';
import { unreadCount } from '../../src/server/whatsapp/inbox.ts';

/** GET /api/admin/whatsapp/unread (members): `UnreadCount`, the navigation's badge (decision 0042: polled). */
export default endpoints('admin-whatsapp-unread', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/unread',
    access: 'member',
    async work({ db }) {
      return json(200, await unreadCount(db), { 'Cache-Control': 'no-store' });
    },
  },
]);

export const config: Config = { path: '/api/admin/whatsapp/unread' };
