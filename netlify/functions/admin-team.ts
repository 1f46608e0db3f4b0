import type { Config } from '@netlify/functions';
import {
  invitationSchema,
  LAST_ADMIN,
  memberChangeSchema,
  PASSKEY_REQUIREMENT_NEEDS_PASSKEY,
  ROLE_LABELS,
  teamSettingsSchema,
} from '../../src/lib/admin/team.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { ADMIN_ONLY } from '../../src/server/auth/guard.ts';
import { displayName } from '../../src/server/auth/users.ts';
import { getConfig, publicSiteUrl } from '../../src/server/config.ts';
import { adminEndpoint, uuidSegment } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
import { sendAccountEmail } from '../../src/server/team/account-mail.ts';
import {
  changeMember,
  createInvitation,
  InvitationLimit,
  NoLongerAdmin,
  revokeInvitation,
  setTeamSettings,
  TeamConflict,
  teamView,
} from '../../src/server/team/members.ts';

const BASE = '/api/admin/team';

/**
 * The team (administrators only):
 * GET    /api/admin/team: members, open invitations, whether invitations are e-mailed.
 * POST   /api/admin/team/invitations {email, role}: 201 {link, emailed}; the link is shown once;
 *        429 past 20 an hour from one administrator or 5 a day to one address.
 * DELETE /api/admin/team/invitations/{id}: revokes it.
 * PATCH  /api/admin/team/members/{id} {role?, active?}: 409 for the last active administrator,
 *        403 when the actor stopped being one meanwhile; a member deactivated or demoted loses
 *        the invitations they sent.
 * PATCH  /api/admin/team/settings {roundRobin?, adminPasskeyRequired?}: new contacts go to the
 *        active advisers in turn; administrators must sign in with a passkey (turned on only
 *        from a passkey session, 409 otherwise, so its author keeps the panel).
 */
export default logged(
  'admin-team',
  adminEndpoint('admin-team', ['GET', 'POST', 'PATCH', 'DELETE'], async ({ request, db, user, url, context }) => {
    const actor = { id: user.id, name: displayName(user) };
    const email = getConfig().notifications.email;
    const [, section] = url.pathname.slice(BASE.length).split('/');
    if (request.method === 'GET' && url.pathname === BASE) return json(200, await teamView(db, email !== null));

    if (request.method === 'POST' && section === 'invitations' && url.pathname === `${BASE}/invitations`) {
      const body = await readJsonObject(request);
      if (body instanceof Response) return body;
      const parsed = invitationSchema.safeParse(body);
      if (!parsed.success) return jsonError(400, 'Revisa la invitación.', { fields: fieldMessages(parsed.error) });
      // Our configured address, never the request's Host or X-Forwarded-Host (an attacker writes those);
      // read first, so a site without one writes no invitation it cannot link to.
      const site = publicSiteUrl();
      try {
        const invitation = await createInvitation(db, parsed.data, actor);
        const link = `${site}/auth/invitacion#${invitation.token}`;
        // Sent after the answer (a slow mail server must not hold the administrator up), retried if it fails.
        const emailed = email !== null;
        if (emailed) {
          const role = ROLE_LABELS[parsed.data.role].toLowerCase();
          sendAccountEmail(context, {
            to: parsed.data.email,
            subject: 'Invitación al panel de prospectos',
            text: `${actor.name} te invitó a trabajar los prospectos del sitio como ${role}. Abre este enlace para elegir tu nombre y tu contraseña (vale 72 horas y solo una vez):\n\n${link}`,
            link,
            expiresAt: invitation.expiresAt,
          });
        }
        return json(201, { id: invitation.id, link, expiresAt: invitation.expiresAt, emailed });
      } catch (error) {
        if (error instanceof TeamConflict) return jsonError(409, error.message);
        if (error instanceof NoLongerAdmin) return jsonError(403, ADMIN_ONLY);
        if (error instanceof InvitationLimit) {
          return json(429, { error: error.message }, { 'Retry-After': String(error.retryAfter) });
        }
        throw error;
      }
    }

    if (request.method === 'DELETE' && section === 'invitations') {
      const id = uuidSegment(url, 1);
      if (!id || !(await revokeInvitation(db, id, actor))) return jsonError(404, 'No encontramos esta invitación.');
      return empty(204);
    }

    if (request.method === 'PATCH' && url.pathname === `${BASE}/settings`) {
      const body = await readJsonObject(request);
      if (body instanceof Response) return body;
      const parsed = teamSettingsSchema.safeParse(body);
      if (!parsed.success) return jsonError(400, 'Revisa el ajuste.', { fields: fieldMessages(parsed.error) });
      if (parsed.data.adminPasskeyRequired && !user.passkeySession) {
        return jsonError(409, PASSKEY_REQUIREMENT_NEEDS_PASSKEY);
      }
      await setTeamSettings(db, parsed.data, actor);
      return json(200, await teamView(db, email !== null));
    }

    if (request.method === 'PATCH' && section === 'members') {
      const id = uuidSegment(url, 1);
      if (!id) return jsonError(404, 'No encontramos a este miembro.');
      const body = await readJsonObject(request);
      if (body instanceof Response) return body;
      const parsed = memberChangeSchema.safeParse(body);
      if (!parsed.success) return jsonError(400, 'Revisa el cambio.', { fields: fieldMessages(parsed.error) });
      const result = await changeMember(db, id, parsed.data, actor);
      if (result === 'missing') return jsonError(404, 'No encontramos a este miembro.');
      if (result === 'last-admin') return jsonError(409, LAST_ADMIN);
      if (result === 'not-admin') return jsonError(403, ADMIN_ONLY);
      return json(200, await teamView(db, email !== null));
    }
    return jsonError(405, 'Método no permitido.');
  }),
);

export const config: Config = {
  path: [
    '/api/admin/team',
    '/api/admin/team/settings',
    '/api/admin/team/invitations',
    '/api/admin/team/invitations/:id',
    '/api/admin/team/members/:id',
  ],
};
