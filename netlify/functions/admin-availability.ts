import type { Config } from '@netlify/functions';
import {
  availabilitySchema,
  PANEL_APPOINTMENT_MESSAGES as MESSAGES,
  timeOffSchema,
} from '../../src/lib/appointments/panel.ts';
import { isUuid } from '../../src/lib/ids.ts';
import {
  addTimeOff,
  findMember,
  mayManage,
  readAvailability,
  removeTimeOff,
  saveAvailability,
} from '../../src/server/appointments/panel.ts';
import type { SignedIn } from '../../src/server/auth/guard.ts';
import type { Queryable } from '../../src/server/db/database.ts';
import { Answered, endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

/**
 * A member's availability for appointments (issue #40, decision 0061): their
 * weekly hours (wall clock of their zone), time off (instants) and the kinds
 * they give. Every member manages their own; an administrator anyone's; an
 * adviser asking for another member's gets 403 (before the member is looked
 * up, so a 403 never tells whether an id exists).
 *
 * GET    /api/admin/availability[?member=id]             the editor's view (self by default)
 * PATCH  /api/admin/availability/{member}                {timeZone, weekly[], kinds[]}, replaced as a whole
 * POST   /api/admin/availability/{member}/time-off       {start, end, reason?} on the member's wall clock
 * DELETE /api/admin/availability/{member}/time-off/{id}
 */
async function managed(db: Queryable, user: SignedIn, id: string | undefined) {
  if (!id || !isUuid(id)) throw new Answered(jsonError(404, MESSAGES.memberNotFound));
  if (!mayManage(user, id)) throw new Answered(jsonError(403, MESSAGES.othersForbidden));
  const member = await findMember(db, id);
  if (!member) throw new Answered(jsonError(404, MESSAGES.memberNotFound));
  return member;
}

export default endpoints('admin-availability', [
  {
    method: 'GET',
    path: '/api/admin/availability',
    access: 'member',
    async work({ db, user, url }) {
      const member = await managed(db, user, url.searchParams.get('member') ?? user.id);
      return json(200, await readAvailability(db, member, user), { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'PATCH',
    path: '/api/admin/availability/:member',
    access: 'member',
    async work({ db, user, actor, params, body }) {
      const member = await managed(db, user, params.member);
      const input = await body(availabilitySchema, MESSAGES.invalidAvailability);
      const saved = await saveAvailability(db, member, input, actor);
      if (saved !== 'saved') return jsonError(400, MESSAGES.unknownKind, { fields: { kinds: MESSAGES.unknownKind } });
      return json(200, await readAvailability(db, member, user));
    },
  },
  {
    method: 'POST',
    path: '/api/admin/availability/:member/time-off',
    access: 'member',
    async work({ db, user, actor, params, body }) {
      const member = await managed(db, user, params.member);
      const input = await body(timeOffSchema, MESSAGES.invalidTimeOff);
      const added = await addTimeOff(db, member, input, actor);
      if (added === 'invalid_time')
        return jsonError(400, MESSAGES.invalidWallTime, { fields: { start: MESSAGES.invalidWallTime } });
      return json(201, added);
    },
  },
  {
    method: 'DELETE',
    path: '/api/admin/availability/:member/time-off/:id',
    access: 'member',
    async work({ db, user, actor, params }) {
      const member = await managed(db, user, params.member);
      if (!isUuid(params.id) || !(await removeTimeOff(db, member, params.id ?? '', actor)))
        return jsonError(404, MESSAGES.timeOffNotFound);
      return new Response(null, { status: 204 });
    },
  },
]);

export const config: Config = {
  path: [
    '/api/admin/availability',
    '/api/admin/availability/:member',
    '/api/admin/availability/:member/time-off',
    '/api/admin/availability/:member/time-off/:id',
  ],
};
