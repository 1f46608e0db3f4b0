import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { type QuickReplyList, quickReplyPatchSchema, quickReplySchema } from '../../src/lib/whatsapp/contract.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
import {
  createQuickReply,
  deleteQuickReply,
  listQuickReplies,
  type QuickReplyChange,
  updateQuickReply,
} from '../../src/server/whatsapp/quick-replies.ts';

const NOT_FOUND = 'No encontramos esta respuesta rápida.';
const TAKEN = 'Ya hay una respuesta rápida con ese título.';

const answer = (change: QuickReplyChange, status: number) =>
  change === 'not_found'
    ? jsonError(404, NOT_FOUND)
    : change === 'title_taken'
      ? jsonError(409, TAKEN, { fields: { title: TAKEN } })
      : json(status, change);

/**
 * Quick replies (decision 0039). GET (members): QuickReplyList, with `text`
 * filled in for `?contact={id}` and the member; POST {title, body} 201,
 * PATCH /{id} 200, DELETE /{id} 204 (administrators), each in the activity log.
 */
export default endpoints('admin-whatsapp-quick-replies', [
  {
    method: 'GET',
    path: '/api/admin/whatsapp/quick-replies',
    access: 'member',
    async work({ db, url, actor }) {
      const contact = url.searchParams.get('contact');
      if (contact !== null && !isUuid(contact)) return jsonError(400, 'El prospecto no es válido.');
      const quickReplies = await listQuickReplies(db, contact, actor);
      if (!quickReplies) return jsonError(404, 'No encontramos este prospecto.');
      const list: QuickReplyList = { quickReplies };
      return json(200, list, { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'POST',
    path: '/api/admin/whatsapp/quick-replies',
    access: 'admin',
    async work({ db, body, actor }) {
      const input = await body(quickReplySchema, 'Revisa la respuesta rápida.');
      return answer(await createQuickReply(db, input, actor), 201);
    },
  },
  {
    method: 'PATCH',
    path: '/api/admin/whatsapp/quick-replies/:id',
    access: 'admin',
    async work({ db, body, actor, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const input = await body(quickReplyPatchSchema, 'Revisa la respuesta rápida.');
      return answer(await updateQuickReply(db, params.id, input, actor), 200);
    },
  },
  {
    method: 'DELETE',
    path: '/api/admin/whatsapp/quick-replies/:id',
    access: 'admin',
    async work({ db, actor, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      return (await deleteQuickReply(db, params.id, actor)) ? empty(204) : jsonError(404, NOT_FOUND);
    },
  },
]);

export const config: Config = { path: ['/api/admin/whatsapp/quick-replies', '/api/admin/whatsapp/quick-replies/:id'] };
