import type { Config } from '@netlify/functions';
import { passwordChangeSchema, WRONG_CURRENT_PASSWORD } from '../../src/lib/admin/team.ts';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
} from '../../src/server/auth/login-limit.ts';
import { changePassword, storedPasswordHash } from '../../src/server/auth/password-change.ts';
import { checkPassword, hashPassword, inPasswordSlot } from '../../src/server/auth/passwords.ts';
import { displayName, passkeyFirst } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, jsonError } from '../../src/server/http/responses.ts';

const PASSKEY_FIRST =
  'Tu equipo exige llaves de acceso a los administradores: entra con tu llave para cambiar tu contraseña.';

/**
 * POST /api/auth/password {current, password}: a member changes their own
 * password; their other sessions end (this one stays). The current password
 * is counted in the sign-in lock before it is compared (login-limit.ts): after
 * five wrong ones from an address, the next gets 429 without a compare. Where
 * administrators must use a passkey, a password session of one who has a
 * passkey is refused (403 passkey_required), as for changing passkeys.
 * The body is checked before the session, as before any database work.
 */
export default endpoints('auth-password', [
  {
    method: 'POST',
    path: '/api/auth/password',
    access: 'public',
    async work({ ip, body, database, member }) {
      const { current, password } = await body(passwordChangeSchema, 'Revisa las contraseñas.');
      return database(async (db) => {
        const user = await member(db, 'account');
        if (await passkeyFirst(db, user)) return jsonError(403, PASSKEY_FIRST, { code: 'passkey_required' });
        const attempt = await reserveLoginAttempt(db, 'password', user.email, ip);
        if (!attempt) return jsonError(429, SIGN_IN_BLOCKED);
        const stored = await storedPasswordHash(db, user.id);
        const next = await inPasswordSlot(async () =>
          (await checkPassword(current, stored)) ? hashPassword(password) : null,
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
        await changePassword(db, actor, next, user.sessionId, ip);
        return empty(204);
      });
    },
  },
]);

export const config: Config = {
  path: '/api/auth/password',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
