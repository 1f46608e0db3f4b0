import type { Config, Context } from '@netlify/functions';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import { passkeyNameSchema } from '../../src/lib/admin/team.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { refuseCrossOrigin, requireAccount } from '../../src/server/auth/guard.ts';
import {
  clearLoginFailures,
  recordFailedSignIn,
  reserveLoginAttempt,
  SIGN_IN_BLOCKED,
  UNKNOWN_PASSKEY,
} from '../../src/server/auth/login-limit.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { displayName, findSessionUserById, passkeyFirst, sessionAnswer } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { requestAddress } from '../../src/server/http/client-address.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { recordActivity } from '../../src/server/team/activity.ts';
import {
  authenticatePasskey,
  authenticationOptions,
  listPasskeys,
  passkeyOwner,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from '../../src/server/team/passkeys.ts';

const BASE = '/api/auth/passkeys';
const PASSKEY_FIRST =
  'Tu equipo exige llaves de acceso a los administradores: entra con tu llave para agregar o quitar otras.';
const UNKNOWN_KEY = 'No reconocimos esta llave de acceso. Entra con tu contraseña o usa otra llave.';
const DUPLICATE_KEY = 'Esta llave de acceso ya está registrada en el panel.';

/** What a browser sends back from navigator.credentials: checked for shape, verified by @simplewebauthn. */
const credentialSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{16,1400}$/),
  rawId: z.string().max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(10_000) }),
  clientExtensionResults: z.looseObject({}),
});
const ceremonySchema = z.object({ challengeId: z.uuid(), response: credentialSchema });

/**
 * Passkeys (WebAuthn):
 * GET    /api/auth/passkeys: the signed-in member's passkeys.
 * POST   /api/auth/passkeys/register/options, then /api/auth/passkeys/register {challengeId, response, name}.
 * DELETE /api/auth/passkeys/{id}.
 * POST   /api/auth/passkeys/login/options, then /api/auth/passkeys/login {challengeId, response}: a session.
 * A sign-in is counted before it is verified, like a password (login-limit.ts): five failures from one
 * address, or fifty against one member's credential, lock it for 15 minutes (429).
 */
export default logged('auth-passkeys', async (request: Request, context: Pick<Context, 'ip'>) => {
  const url = new URL(request.url);
  const rest = url.pathname.slice(BASE.length);
  if (request.method !== 'GET') {
    const refused = refuseCrossOrigin(request);
    if (refused) return refused;
  }
  try {
    return await withDatabase(async (db) => {
      if (rest === '/login/options' && request.method === 'POST') {
        return json(200, await authenticationOptions(db, url));
      }
      if (rest === '/login' && request.method === 'POST') {
        const body = await readJsonObject(request);
        if (body instanceof Response) return body;
        const parsed = ceremonySchema.safeParse(body);
        // An answer of the wrong shape is refused like a malformed password login: nothing to count.
        if (!parsed.success) return jsonError(401, UNKNOWN_KEY);
        const ip = requestAddress(context);
        const owner = await passkeyOwner(db, parsed.data.response.id);
        const attempt = await reserveLoginAttempt(db, 'passkey', owner?.email ?? UNKNOWN_PASSKEY, ip);
        if (!attempt) return jsonError(429, SIGN_IN_BLOCKED);
        const userId = await authenticatePasskey(db, url, {
          challengeId: parsed.data.challengeId,
          response: parsed.data.response as unknown as AuthenticationResponseJSON,
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
        await db.query('UPDATE users SET last_sign_in_at = now() WHERE id = $1', [user.id]);
        await recordActivity(db, {
          actor: { id: user.id, name: displayName(user) },
          kind: 'sign_in',
          summary: `${displayName(user)} inició sesión con una llave de acceso`,
          ip,
        });
        return json(200, sessionAnswer(user), { 'Set-Cookie': await signIn(db, request, user, 'passkey') });
      }

      const user = await requireAccount(request, db);
      if (user instanceof Response) return user;
      const actor = { id: user.id, name: displayName(user) };
      if (rest === '' && request.method === 'GET') return json(200, { items: await listPasskeys(db, user.id) });
      // A password alone must not change the passkeys of an administrator who has one while they are required.
      if (await passkeyFirst(db, user)) {
        return jsonError(403, PASSKEY_FIRST, { code: 'passkey_required' });
      }
      if (rest === '/register/options' && request.method === 'POST') {
        return json(200, await registrationOptions(db, user, url));
      }
      if (rest === '/register' && request.method === 'POST') {
        const body = await readJsonObject(request);
        if (body instanceof Response) return body;
        const parsed = ceremonySchema.extend({ name: passkeyNameSchema }).safeParse(body);
        if (!parsed.success) {
          const fields = fieldMessages(parsed.error);
          return jsonError(400, fields.name ?? 'La llave de acceso no respondió como se esperaba. Intenta de nuevo.', {
            fields,
          });
        }
        const added = await registerPasskey(
          db,
          user,
          url,
          {
            challengeId: parsed.data.challengeId,
            response: parsed.data.response as unknown as RegistrationResponseJSON,
            name: parsed.data.name,
          },
          actor,
        );
        if (added === 'duplicate') return jsonError(409, DUPLICATE_KEY);
        if (added === 'unverified') return jsonError(400, 'No pudimos verificar la llave de acceso. Intenta de nuevo.');
        return json(201, { items: await listPasskeys(db, user.id) });
      }
      if (request.method === 'DELETE' && /^\/[A-Za-z0-9_-]{16,1400}$/.test(rest)) {
        return (await removePasskey(db, user.id, rest.slice(1), actor))
          ? empty(204)
          : jsonError(404, 'No encontramos esta llave de acceso.');
      }
      return methodNotAllowed(['GET', 'POST', 'DELETE']);
    });
  } catch (error) {
    logJson('error', { function: 'auth-passkeys', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = {
  path: [
    '/api/auth/passkeys',
    '/api/auth/passkeys/register/options',
    '/api/auth/passkeys/register',
    '/api/auth/passkeys/login/options',
    '/api/auth/passkeys/login',
    '/api/auth/passkeys/:id',
  ],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
