import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { type SendMessageAnswer, type SendRefusalAnswer, sendMessageSchema } from '../../src/lib/whatsapp/contract.ts';
import { getConfig } from '../../src/server/config.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { listMessages } from '../../src/server/whatsapp/inbox.ts';
import { enqueueMessage, REFUSALS, whatsappState } from '../../src/server/whatsapp/send.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * A contact's WhatsApp (decision 0039), for members:
 * GET /api/admin/contacts/{id}/whatsapp: WhatsappState (the 24-hour window, the opt-out, what may be sent and why not).
 * POST /api/admin/contacts/{id}/whatsapp/messages SendMessageInput: 202 {message} stored as `sending` and queued,
 * 200 {message} for an idempotency key already used (a double press), 409 {error, reason} refused, 503 off.
 * GET /api/admin/contacts/{id}/whatsapp/messages?before=: MessagePage, newest first, 50 a page; `before` is
 * the previous page's `nextCursor` (the panel's read, src/server/whatsapp/inbox.ts).
 */
export default endpoints('admin-contact-whatsapp', [
  {
    method: 'GET',
    path: '/api/admin/contacts/:id/whatsapp',
    access: 'member',
    async work({ db, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const state = await whatsappState(db, params.id, getConfig().whatsapp);
      return state ? json(200, state, { 'Cache-Control': 'no-store' }) : jsonError(404, NOT_FOUND);
    },
  },
  {
    method: 'GET',
    path: '/api/admin/contacts/:id/whatsapp/messages',
    access: 'member',
    async work({ db, url, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const cursor = decodeCursor(url.searchParams.get('before') || null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      const page = await listMessages(db, params.id, cursor);
      return page ? json(200, page) : jsonError(404, NOT_FOUND);
    },
  },
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/whatsapp/messages',
    access: 'member',
    async work({ db, params, body, actor }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const input = await body(sendMessageSchema, 'Revisa el mensaje.');
      if (!getConfig().whatsapp) {
        const refusal: SendRefusalAnswer = { error: REFUSALS.not_configured, reason: 'not_configured' };
        return json(503, refusal);
      }
      const answer = await enqueueMessage(db, params.id, input, actor);
      if (answer.kind === 'not_found') return jsonError(404, NOT_FOUND);
      if (answer.kind === 'refused') {
        const refusal: SendRefusalAnswer = { error: REFUSALS[answer.reason], reason: answer.reason };
        return json(409, refusal);
      }
      const sent: SendMessageAnswer = { message: answer.message };
      return json(answer.created ? 202 : 200, sent);
    },
  },
]);

export const config: Config = {
  path: ['/api/admin/contacts/:id/whatsapp', '/api/admin/contacts/:id/whatsapp/messages'],
};
