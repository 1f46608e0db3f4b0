import type { Config, Context } from '@netlify/functions';
import { acceptInvitationSchema, INVITATION_INVALID, LINK_TOKEN, ROLE_LABELS } from '../../src/lib/admin/team.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import { hashPassword, inPasswordSlot, PASSWORDS_BUSY, PasswordsBusy } from '../../src/server/auth/passwords.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { sessionAnswer } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { requestAddress } from '../../src/server/http/client-address.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { acceptInvitation, findInvitation, TeamConflict } from '../../src/server/team/members.ts';

/**
 * The invitation link's page asks:
 * POST /api/auth/invitation/check {token}: 200 {email, role, roleLabel} or 410 (used, expired, revoked).
 * POST /api/auth/invitation {token, name, password}: 201, the new member signed in.
 * The token travels in bodies only (never in a URL that a log would keep).
 */
export default logged('auth-invitation', async (request: Request, context: Pick<Context, 'ip'>) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const checking = new URL(request.url).pathname.endsWith('/check');
  try {
    if (checking) {
      const token = typeof body.token === 'string' && LINK_TOKEN.test(body.token) ? body.token : null;
      const invitation = token ? await withDatabase((db) => findInvitation(db, token)) : null;
      if (!invitation) return jsonError(410, INVITATION_INVALID);
      return json(200, { ...invitation, roleLabel: ROLE_LABELS[invitation.role] });
    }
    const parsed = acceptInvitationSchema.safeParse(body);
    if (!parsed.success) {
      const fields = fieldMessages(parsed.error);
      if (fields.token) return jsonError(410, INVITATION_INVALID);
      return jsonError(400, 'Revisa tu nombre y tu contraseña.', { fields });
    }
    const { token, name, password } = parsed.data;
    return await withDatabase(async (db) => {
      // Checked before hashing: a dead link costs no CPU.
      if (!(await findInvitation(db, token))) return jsonError(410, INVITATION_INVALID);
      const passwordHash = await inPasswordSlot(() => hashPassword(password));
      const member = await acceptInvitation(db, token, name, passwordHash, requestAddress(context));
      if (!member) return jsonError(410, INVITATION_INVALID);
      return json(201, sessionAnswer(member), { 'Set-Cookie': await signIn(db, request, member) });
    });
  } catch (error) {
    if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
    if (error instanceof TeamConflict) return jsonError(409, error.message);
    logJson('error', { function: 'auth-invitation', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = {
  path: ['/api/auth/invitation', '/api/auth/invitation/check'],
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
