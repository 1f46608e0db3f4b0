import type { Config } from '@netlify/functions';
import { type MoveAnswer, moveSchema } from '../../src/lib/appointments/panel.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { moveByTeam } from '../../src/server/appointments/manage.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos esta cita.';

const REFUSED = {
  forbidden: [403, 'Solo quien da la cita o un administrador puede reprogramarla.'],
  closed: [409, 'Esta cita ya está cancelada o marcada; ya no se puede reprogramar.'],
  lapsed: [409, 'El apartado de esta cita venció sin pago: agenda una cita nueva.'],
  begun: [409, 'Esta cita ya empezó: márcala como «Asistió» o «No asistió».'],
  taken: [409, 'Ese horario ya no está disponible. Elige otro de la lista.'],
} as const;

/**
 * POST /api/admin/appointments/{id}/move {start} (the appointment's member or
 * an administrator): the team moves an appointment that has not begun to
 * another free slot of its kind and place; the buyer is told as for their own
 * move. 200 MoveAnswer; 400; 403 another member's; 404; 409 taken, begun,
 * cancelled, marked or its hold lapsed.
 */
export default endpoints('admin-appointment-move', [
  {
    method: 'POST',
    path: '/api/admin/appointments/:id/move',
    access: 'member',
    async work({ db, user, actor, params, body }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const input = await body(moveSchema, 'Elige un horario de la lista.');
      const result = await moveByTeam(
        db,
        params.id,
        { id: user.id, admin: user.admin, actor },
        Date.parse(input.start),
      );
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (typeof result === 'string') {
        const [status, message] = REFUSED[result];
        return jsonError(status, message);
      }
      const answer: MoveAnswer = {
        id: params.id,
        start: new Date(result.start).toISOString(),
        end: new Date(result.end).toISOString(),
        moved: result.moved,
        memberId: result.memberId,
      };
      return json(200, answer);
    },
  },
]);

export const config: Config = { path: '/api/admin/appointments/:id/move' };
