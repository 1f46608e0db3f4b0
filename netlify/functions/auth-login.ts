import type { Config, Context } from '@netlify/functions';
import { loginSchema } from '../../src/lib/forms/credentials.ts';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
} from '../../src/server/auth/login-limit.ts';
import {
  checkAgainstDecoy,
  checkPassword,
  inPasswordSlot,
  PASSWORDS_BUSY,
  PasswordsBusy,
} from '../../src/server/auth/passwords.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { adminPasskeyRequired, displayName, findUserByEmail, sessionAnswer } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { requestAddress } from '../../src/server/http/client-address.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { recordActivity } from '../../src/server/team/activity.ts';

const WRONG = 'Credenciales incorrectas';
const DEACTIVATED = 'Tu cuenta está desactivada. Pide a un administrador que la reactive.';

/**
 * POST /api/auth/login {email, password}: a session cookie for 8 hours.
 * A wrong e-mail and a wrong password get the same answer in the same time.
 * Each attempt is counted before its password is compared, however many arrive
 * at once: five failures from one address within 15 minutes lock that address,
 * fifty for one e-mail from anywhere lock that e-mail (login-limit.ts).
 */
export default logged('auth-login', async (request: Request, context: Pick<Context, 'ip'>): Promise<Response> => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const parsed = loginSchema.safeParse(body);
  if (!parsed.success) return jsonError(401, WRONG);
  const { email, password } = parsed.data;

  try {
    // The slot first: when too many checks wait, answer 429 without touching the database.
    return await inPasswordSlot(() =>
      withDatabase(async (db) => {
        const ip = requestAddress(context);
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
        await db.query('UPDATE users SET last_sign_in_at = now() WHERE id = $1', [user.id]);
        await recordActivity(db, {
          actor: { id: user.id, name: displayName(user) },
          kind: 'sign_in',
          summary: `${displayName(user)} inició sesión`,
          ip,
        });
        // While the team requires passkeys, an administrator's password session reaches only their account.
        const passkeyPending = user.admin && (await adminPasskeyRequired(db));
        return json(200, sessionAnswer({ ...user, passkeyPending }), { 'Set-Cookie': await signIn(db, request, user) });
      }),
    );
  } catch (error) {
    if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
    logJson('error', { function: 'auth', event: 'login', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = {
  path: '/api/auth/login',
  rateLimit: { windowLimit: 20, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
