import type { Config } from '@netlify/functions';
import { PASSKEY_REQUIREMENT_NEEDS_PASSKEY, teamSettingsSchema } from '../../src/lib/admin/team.ts';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { setTeamSettings, teamView } from '../../src/server/team/members.ts';

/** Whether invitations are e-mailed (an SMTP server is configured). */
const mailer = () => getConfig().notifications.email !== null;

/**
 * The team (administrators only); its members and invitations have their own functions:
 * GET    /api/admin/team: members, open invitations, whether invitations are e-mailed.
 * PATCH  /api/admin/team/settings {roundRobin?, adminPasskeyRequired?}: new contacts go to the
 *        active advisers in turn; administrators must sign in with a passkey (turned on only
 *        from a passkey session, 409 otherwise, so its author keeps the panel).
 */
export default endpoints('admin-team', [
  {
    method: 'GET',
    path: '/api/admin/team',
    access: 'admin',
    work: async ({ db }) => json(200, await teamView(db, mailer())),
  },
  {
    method: 'PATCH',
    path: '/api/admin/team/settings',
    access: 'admin',
    async work({ db, user, actor, body }) {
      const change = await body(teamSettingsSchema, 'Revisa el ajuste.');
      if (change.adminPasskeyRequired && !user.passkeySession) {
        return jsonError(409, PASSKEY_REQUIREMENT_NEEDS_PASSKEY);
      }
      await setTeamSettings(db, change, actor);
      return json(200, await teamView(db, mailer()));
    },
  },
]);

export const config: Config = { path: ['/api/admin/team', '/api/admin/team/settings'] };
