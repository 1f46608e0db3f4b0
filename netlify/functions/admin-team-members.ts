import type { Config } from '@netlify/functions';
import { LAST_ADMIN, memberChangeSchema } from '../../src/lib/admin/team.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { ADMIN_ONLY } from '../../src/server/auth/guard.ts';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { changeMember, teamView } from '../../src/server/team/members.ts';

const MISSING = 'No encontramos a este miembro.';

/**
 * A member of the team (administrators only):
 * PATCH /api/admin/team/members/{id} {role?, active?}: the team as GET /api/admin/team gives it;
 *       409 for the last active administrator, 403 when the actor stopped being one meanwhile;
 *       a member deactivated or demoted loses the invitations they sent.
 */
export default endpoints('admin-team-members', [
  {
    method: 'PATCH',
    path: '/api/admin/team/members/:id',
    access: 'admin',
    async work({ db, actor, params, body }) {
      const { id } = params;
      if (!isUuid(id)) return jsonError(404, MISSING);
      const change = await body(memberChangeSchema, 'Revisa el cambio.');
      const result = await changeMember(db, id, change, actor);
      if (result === 'missing') return jsonError(404, MISSING);
      if (result === 'last-admin') return jsonError(409, LAST_ADMIN);
      if (result === 'not-admin') return jsonError(403, ADMIN_ONLY);
      return json(200, await teamView(db, getConfig().notifications.email !== null));
    },
  },
]);

export const config: Config = { path: '/api/admin/team/members/:id' };
