import type { Config } from '@netlify/functions';
import { attemptSchema } from '../../src/lib/admin/outcomes.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { recordAttempt } from '../../src/server/contacts/outcome.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * POST /api/admin/contacts/{id}/attempts {channel: llamada | whatsapp} (members): 204. Sent by the
 * panel (fetch with keepalive) as Llamar or WhatsApp opens, so the attempt is on the timeline.
 */
export default endpoints('admin-contact-attempts', [
  {
    method: 'POST',
    path: '/api/admin/contacts/:id/attempts',
    access: 'member',
    async work({ db, actor, params, body }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const { channel } = await body(attemptSchema, 'Revisa el intento.');
      return (await recordAttempt(db, params.id, channel, actor)) ? empty(204) : jsonError(404, NOT_FOUND);
    },
  },
]);

export const config: Config = { path: '/api/admin/contacts/:id/attempts' };
