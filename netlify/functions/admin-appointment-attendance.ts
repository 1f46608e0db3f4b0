import type { Config } from '@netlify/functions';
import { ATTENDANCE_MESSAGES, attendanceSchema } from '../../src/lib/appointments/attendance.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { AttendanceConflict, markAttendance } from '../../src/server/appointments/attendance.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * POST /api/admin/appointments/{id}/attendance {attended: true|false} (the
 * appointment's member or an administrator): "Asistió" / "No asistió" after
 * its start (decision 0062). 200 AttendanceSaved (a no-show with its proposed
 * next contact; the same mark again answers the same); 403 another member's;
 * 404; 409 before its start, cancelled, unpaid or already marked the other way.
 */
export default endpoints('admin-appointment-attendance', [
  {
    method: 'POST',
    path: '/api/admin/appointments/:id/attendance',
    access: 'member',
    async work({ db, user, actor, params, body }) {
      if (!isUuid(params.id)) return jsonError(404, ATTENDANCE_MESSAGES.notFound);
      const { attended } = await body(attendanceSchema, ATTENDANCE_MESSAGES.invalid);
      try {
        const result = await markAttendance(db, params.id, attended, { id: user.id, admin: user.admin, actor });
        if (result === 'not_found') return jsonError(404, ATTENDANCE_MESSAGES.notFound);
        if (result === 'forbidden') return jsonError(403, ATTENDANCE_MESSAGES.forbidden);
        return json(200, result);
      } catch (error) {
        if (error instanceof AttendanceConflict) return jsonError(409, error.message);
        throw error;
      }
    },
  },
]);

export const config: Config = { path: '/api/admin/appointments/:id/attendance' };
