import type { Config } from '@netlify/functions';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
  UNKNOWN_PASSKEY,
} from '../../src/server/auth/login-limit.ts';
import { recordSignIn, signIn } from '../../src/server/auth/sign-in.ts';
import { displayName, findSessionUserById, sessionAnswer } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { ceremonySchema } from '../../src/server/http/passkey-schemas.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { authenticatePasskey, authenticationOptions, passkeyOwner } from '../../src/server/team/webauthn.ts';

const UNKNOWN_KEY = 'No reconocimos esta llave de acceso. Entra con tu contraseña o usa otra llave.';

/**
 * Signing in with a passkey (WebAuthn):
 * POST /api/auth/passkeys/login/options, then /api/auth/passkeys/login {challengeId, response}: a session.
 * A sign-in is counted before it is verified, like a password (login-limit.ts): five failures from one
 * address, or fifty against one member's credential, lock it for 15 minutes (429).
 */
export default endpoints('auth-passkey-login', [
  {
    method: 'POST',
    path: '/api/auth/passkeys/login/options',
    access: 'public',
    work: ({ url, database }) => database(async (db) => json(200, await authenticationOptions(db, url))),
  },
  {
    method: 'POST',
    path: '/api/auth/passkeys/login',
    access: 'public',
    async work({ request, url, ip, body, database }) {
      // An answer of the wrong shape is refused like a malformed password login: nothing to count.
      const { challengeId, response } = await body(ceremonySchema, () => jsonError(401, UNKNOWN_KEY));
      return database(async (db) => {
        const owner = await passkeyOwner(db, response.id);
        const attempt = await reserveLoginAttempt(db, 'passkey', owner?.email ?? UNKNOWN_PASSKEY, ip);
        if (!attempt) return jsonError(429, SIGN_IN_BLOCKED);
        const userId = await authenticatePasskey(db, url, {
          challengeId,
          response: response as unknown as AuthenticationResponseJSON,
        });
        const user = userId ? await findSessionUserById(db, userId) : null;
        if (!user) {
          await recordFailedSignIn(db, attempt, {
            member: owner ? { id: owner.id, name: displayName(owner) } : null,
            summary: owner
              ? `Intento fallido de inicio de sesión con una llave de acceso de ${owner.email}`
              : 'Intento fallido de inicio de sesión con una llave de acceso',
          });
          return jsonError(401, UNKNOWN_KEY);
        }
        await clearLoginFailures(db, attempt);
        await recordSignIn(db, user, 'passkey', ip);
        return json(200, sessionAnswer(user), { 'Set-Cookie': await signIn(db, request, user, 'passkey') });
      });
    },
  },
]);

export const config: Config = {
  path: ['/api/auth/passkeys/login/options', '/api/auth/passkeys/login'],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
