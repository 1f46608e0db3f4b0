import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { cancelByTeam } from '../../src/server/appointments/cancel.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos esta cita.';

const REFUSED = {
  forbidden: [403, 'Solo quien da la cita o un administrador puede cancelarla.'],
  begun: [409, 'Esta cita ya empezó: márcala como «Asistió» o «No asistió».'],
  closed: [409, 'Esta cita ya se marcó; ya no se puede cancelar.'],
} as const;

/**
 * POST /api/admin/appointments/{id}/cancel (the appointment's member or an
 * administrator): the team cancels an appointment that has not begun; the
 * buyer is told, a paid one is refunded (issue #41). 200 {id, status,
 * changed}; 403 another member's; 404; 409 begun or already marked.
 */
export default endpoints('admin-appointment-cancel', [
  {
    method: 'POST',
    path: '/api/admin/appointments/:id/cancel',
    access: 'member',
    async work({ db, user, actor, params }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const result = await cancelByTeam(db, params.id, { id: user.id, admin: user.admin, actor });
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (result === 'cancelled' || result === 'already')
        return json(200, { id: params.id, status: 'cancelada', changed: result === 'cancelled' });
      const [status, message] = REFUSED[result];
      return jsonError(status, message);
    },
  },
]);

export const config: Config = { path: '/api/admin/appointments/:id/cancel' };
