import type { Config, Context } from '@netlify/functions';
import { passwordChangeSchema, WRONG_CURRENT_PASSWORD } from '../../src/lib/admin/team.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { refuseCrossOrigin, requireAccount } from '../../src/server/auth/guard.ts';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
} from '../../src/server/auth/login-limit.ts';
import {
  checkPassword,
  hashPassword,
  inPasswordSlot,
  PASSWORDS_BUSY,
  PasswordsBusy,
} from '../../src/server/auth/passwords.ts';
import { displayName, passkeyFirst, revokeSessionsOf } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { requestAddress } from '../../src/server/http/client-address.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { recordActivity } from '../../src/server/team/activity.ts';

const PASSKEY_FIRST =
  'Tu equipo exige llaves de acceso a los administradores: entra con tu llave para cambiar tu contraseña.';

/**
 * POST /api/auth/password {current, password}: a member changes their own
 * password; their other sessions end (this one stays). The current password
 * is counted in the sign-in lock before it is compared (login-limit.ts): after
 * five wrong ones from an address, the next gets 429 without a compare. Where
 * administrators must use a passkey, a password session of one who has a
 * passkey is refused (403 passkey_required), as for changing passkeys.
 */
export default logged('auth-password', async (request: Request, context: Pick<Context, 'ip'>) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const parsed = passwordChangeSchema.safeParse(body);
  if (!parsed.success) {
    return jsonError(400, 'Revisa las contraseñas.', { fields: fieldMessages(parsed.error) });
  }
  try {
    return await withDatabase(async (db) => {
      const user = await requireAccount(request, db);
      if (user instanceof Response) return user;
      if (await passkeyFirst(db, user)) return jsonError(403, PASSKEY_FIRST, { code: 'passkey_required' });
      const ip = requestAddress(context);
      const attempt = await reserveLoginAttempt(db, 'password', user.email, ip);
      if (!attempt) return jsonError(429, SIGN_IN_BLOCKED);
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
        user.id,
      ]);
      const stored = rows[0]?.password_hash ?? '';
      const next = await inPasswordSlot(async () =>
        (await checkPassword(parsed.data.current, stored)) ? hashPassword(parsed.data.password) : null,
      );
      const actor = { id: user.id, name: displayName(user) };
      if (!next) {
        await recordFailedSignIn(db, attempt, {
          member: actor,
          summary: `Contraseña actual incorrecta al cambiar la contraseña de ${user.email}`,
        });
        return jsonError(400, WRONG_CURRENT_PASSWORD, { fields: { current: WRONG_CURRENT_PASSWORD } });
      }
      await clearLoginFailures(db, attempt);
      await db.transaction(async (tx) => {
        await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, next]);
        await revokeSessionsOf(tx, user.id, user.sessionId);
        await recordActivity(tx, {
          actor,
          kind: 'password_changed',
          summary: `${actor.name} cambió su contraseña (se cerraron sus otras sesiones)`,
          ip,
        });
      });
      return empty(204);
    });
  } catch (error) {
    if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
    logJson('error', { function: 'auth-password', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = {
  path: '/api/auth/password',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
