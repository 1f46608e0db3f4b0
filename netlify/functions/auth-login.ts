import type { Config } from '@netlify/functions';
import { loginSchema } from '../../src/lib/forms/credentials.ts';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
} from '../../src/server/auth/login-limit.ts';
import { checkAgainstDecoy, checkPassword, inPasswordSlot } from '../../src/server/auth/passwords.ts';
import { recordSignIn, signIn } from '../../src/server/auth/sign-in.ts';
import { adminPasskeyRequired, displayName, findUserByEmail, sessionAnswer } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const WRONG = 'Credenciales incorrectas';
const DEACTIVATED = 'Tu cuenta está desactivada. Pide a un administrador que la reactive.';

/**
 * POST /api/auth/login {email, password}: a session cookie for 8 hours.
 * A wrong e-mail and a wrong password get the same answer in the same time.
 * Each attempt is counted before its password is compared, however many arrive
 * at once: five failures from one address within 15 minutes lock that address,
 * fifty for one e-mail from anywhere lock that e-mail (login-limit.ts).
 */
export default endpoints('auth-login', [
  {
    method: 'POST',
    path: '/api/auth/login',
    access: 'public',
    async work({ request, ip, body, database }) {
      const { email, password } = await body(loginSchema, () => jsonError(401, WRONG));
      // The slot first: when too many checks wait, answer 429 without touching the database.
      return inPasswordSlot(() =>
        database(async (db) => {
          const attempt = await reserveLoginAttempt(db, 'password', email, ip);
          if (!attempt) return jsonError(429, SIGN_IN_BLOCKED);
          const user = await findUserByEmail(db, email);
          const valid = user ? await checkPassword(password, user.passwordHash) : await checkAgainstDecoy(password);
          if (!user || !valid) {
            // The reserved attempt stays as a failure; the log keeps who was tried, from where (bounded).
            await recordFailedSignIn(db, attempt, {
              member: user ? { id: user.id, name: displayName(user) } : null,
              summary: `Intento fallido de inicio de sesión con ${email}`,
            });
            return jsonError(401, WRONG);
          }
          await clearLoginFailures(db, attempt);
          if (!user.active) return jsonError(403, DEACTIVATED);
          await recordSignIn(db, user, 'password', ip);
          // While the team requires passkeys, an administrator's password session reaches only their account.
          const passkeyPending = user.admin && (await adminPasskeyRequired(db));
          return json(200, sessionAnswer({ ...user, passkeyPending }), {
            'Set-Cookie': await signIn(db, request, user),
          });
        }),
      );
    },
  },
]);

export const config: Config = {
  path: '/api/auth/login',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
