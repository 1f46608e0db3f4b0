import type { Config } from '@netlify/functions';
import { acceptInvitationSchema, INVITATION_INVALID, LINK_TOKEN, ROLE_LABELS } from '../../src/lib/admin/team.ts';
import { hashPassword, inPasswordSlot } from '../../src/server/auth/passwords.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { sessionAnswer } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { acceptInvitation, findInvitation, TeamConflict } from '../../src/server/team/members.ts';

/**
 * The invitation link's page asks:
 * POST /api/auth/invitation/check {token}: 200 {email, role, roleLabel} or 410 (used, expired, revoked).
 * POST /api/auth/invitation {token, name, password}: 201, the new member signed in.
 * The token travels in bodies only (never in a URL that a log would keep).
 */
export default endpoints('auth-invitation', [
  {
    method: 'POST',
    path: '/api/auth/invitation/check',
    access: 'public',
    async work({ jsonObject, database }) {
      // A token that is not one of ours is a dead link (410), not a form to correct.
      const { token } = await jsonObject();
      const invitation =
        typeof token === 'string' && LINK_TOKEN.test(token) ? await database((db) => findInvitation(db, token)) : null;
      if (!invitation) return jsonError(410, INVITATION_INVALID);
      return json(200, { ...invitation, roleLabel: ROLE_LABELS[invitation.role] });
    },
  },
  {
    method: 'POST',
    path: '/api/auth/invitation',
    access: 'public',
    async work({ request, ip, body, database }) {
      const { token, name, password } = await body(acceptInvitationSchema, (fields) =>
        fields.token
          ? jsonError(410, INVITATION_INVALID)
          : jsonError(400, 'Revisa tu nombre y tu contraseña.', { fields }),
      );
      try {
        return await database(async (db) => {
          // Checked before hashing: a dead link costs no CPU.
          if (!(await findInvitation(db, token))) return jsonError(410, INVITATION_INVALID);
          const passwordHash = await inPasswordSlot(() => hashPassword(password));
          const member = await acceptInvitation(db, token, name, passwordHash, ip);
          if (!member) return jsonError(410, INVITATION_INVALID);
          return json(201, sessionAnswer(member), { 'Set-Cookie': await signIn(db, request, member) });
        });
      } catch (error) {
        if (error instanceof TeamConflict) return jsonError(409, error.message);
        throw error;
      }
    },
  },
]);

export const config: Config = {
  path: ['/api/auth/invitation', '/api/auth/invitation/check'],
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
