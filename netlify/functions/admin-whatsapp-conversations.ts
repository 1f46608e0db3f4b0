import type { Config } from '@netlify/functions';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { conversationQuerySchema } from '../../src/lib/whatsapp/inbox.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { listConversations } from '../../src/server/whatsapp/inbox.ts';

/**
 * GET /api/admin/whatsapp/conversations?filter=all|mine|unassigned|waiting|opted_out|unread&q=&cursor=
 * (members, as they see contacts): `ConversationPage`, newest message first, 30 a page (decision 0039).
 */
export default endpoints('admin-whatsapp-conversations', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/conversations',
    access: 'member',
    async work({ db, url, user }) {
      const parsed = conversationQuerySchema.safeParse(
        Object.fromEntries([...url.searchParams].filter(([, value]) => value !== '')),
      );
      if (!parsed.success) {
        return jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(parsed.error) });
      }
      const cursor = decodeCursor(parsed.data.cursor ?? null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      return json(
        200,
        await listConversations(db, {
          filter: parsed.data.filter ?? 'all',
          q: parsed.data.q || null,
          cursor,
          memberId: user.id,
        }),
      );
    },
  },
]);

export const config: Config = { path: '/api/admin/whatsapp/conversations' };
