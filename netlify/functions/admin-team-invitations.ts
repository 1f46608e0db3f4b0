import type { Config } from '@netlify/functions';
import { invitationSchema, ROLE_LABELS } from '../../src/lib/admin/team.ts';
import { isUuid } from '../../src/lib/ids.ts';
import { ADMIN_ONLY } from '../../src/server/auth/guard.ts';
import { getConfig, publicSiteUrl } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
import { sendAccountEmail } from '../../src/server/team/account-mail.ts';
import {
  createInvitation,
  InvitationLimit,
  NoLongerAdmin,
  revokeInvitation,
  TeamConflict,
} from '../../src/server/team/members.ts';

/**
 * Invitations to the team (administrators only):
 * POST   /api/admin/team/invitations {email, role}: 201 {id, link, expiresAt, emailed}; the link is
 *        shown once; 429 past 20 an hour from one administrator or 5 a day to one address.
 * DELETE /api/admin/team/invitations/{id}: revokes it.
 */
export default endpoints('admin-team-invitations', [
  {
    method: 'POST',
    path: '/api/admin/team/invitations',
    access: 'admin',
    async work({ db, actor, context, body }) {
      const invited = await body(invitationSchema, 'Revisa la invitación.');
      // Our configured address, never the request's Host or X-Forwarded-Host (an attacker writes those);
      // read first, so a site without one writes no invitation it cannot link to.
      const site = publicSiteUrl();
      const emailed = getConfig().notifications.email !== null;
      try {
        const invitation = await createInvitation(db, invited, actor);
        const link = `${site}/auth/invitacion#${invitation.token}`;
        // Queued, then sent after the answer (a slow mail server must not hold the administrator up), retried if it fails.
        if (emailed) {
          const role = ROLE_LABELS[invited.role].toLowerCase();
          await sendAccountEmail(db, context, {
            to: invited.email,
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
    },
  },
  {
    method: 'DELETE',
    path: '/api/admin/team/invitations/:id',
    access: 'admin',
    async work({ db, actor, params }) {
      const { id } = params;
      if (!isUuid(id) || !(await revokeInvitation(db, id, actor))) {
        return jsonError(404, 'No encontramos esta invitación.');
      }
      return empty(204);
    },
  },
]);

export const config: Config = { path: ['/api/admin/team/invitations', '/api/admin/team/invitations/:id'] };
