import type { Config } from '@netlify/functions';
import { slotDatesSchema } from '../../src/lib/appointments/booking.ts';
import { MANAGE_MESSAGES } from '../../src/lib/appointments/manage.ts';
import { type MoveAnswer, moveSchema } from '../../src/lib/appointments/panel.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { moveByTeam, teamMoveSlots } from '../../src/server/appointments/manage.ts';
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
 * GET /api/admin/appointments/{id}/slots?from&to (the appointment's member or
 * an administrator): the free slots its move may take, its own time counting
 * as free (a member who alone gives the kind can move it by half an hour);
 * 200 SlotsAnswer; 400 bad dates; 403, 404 and 409 as the move.
 *
 * POST /api/admin/appointments/{id}/move {start} (the appointment's member or
 * an administrator): the team moves an appointment that has not begun to
 * another free slot of its kind and place; the buyer is told as for their own
 * move. 200 MoveAnswer; 400; 403 another member's; 404; 409 taken, begun,
 * cancelled, marked or its hold lapsed.
 */
export default endpoints('admin-appointment-move', [
  {
    method: 'GET',
    path: '/api/admin/appointments/:id/slots',
    access: 'member',
    async work({ db, user, params, url }) {
      if (!isUuid(params.id)) return jsonError(404, NOT_FOUND);
      const dates = slotDatesSchema.safeParse(Object.fromEntries(url.searchParams));
      if (!dates.success) return jsonError(400, MANAGE_MESSAGES.invalid, { fields: fieldMessages(dates.error) });
      const result = await teamMoveSlots(db, params.id, { id: user.id, admin: user.admin }, dates.data);
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (typeof result === 'string') {
        const [status, message] = REFUSED[result];
        return jsonError(status, message);
      }
      return json(200, result, { 'Cache-Control': 'no-store' });
    },
  },
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

export const config: Config = { path: ['/api/admin/appointments/:id/move', '/api/admin/appointments/:id/slots'] };
