import type { Config } from '@netlify/functions';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { passkeyNameSchema } from '../../src/lib/admin/team.ts';
import { passkeyFirst } from '../../src/server/auth/users.ts';
import { endpoints, type MemberCall } from '../../src/server/http/endpoint.ts';
import { ceremonySchema } from '../../src/server/http/passkey-schemas.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
import { listPasskeys, registerPasskey, registrationOptions, removePasskey } from '../../src/server/team/webauthn.ts';

const PASSKEY_FIRST =
  'Tu equipo exige llaves de acceso a los administradores: entra con tu llave para agregar o quitar otras.';
const DUPLICATE_KEY = 'Esta llave de acceso ya está registrada en el panel.';
const UNANSWERED = 'La llave de acceso no respondió como se esperaba. Intenta de nuevo.';

/** A route's `work`, refused (403) first where a password alone would change the passkeys of an administrator who has one while they are required. */
const unlessPasskeyFirst =
  (work: (call: MemberCall) => Promise<Response>) =>
  async (call: MemberCall): Promise<Response> =>
    (await passkeyFirst(call.db, call.user)) ? jsonError(403, PASSKEY_FIRST, { code: 'passkey_required' }) : work(call);

/**
 * A member's own passkeys (WebAuthn); signing in with one is auth-passkey-login:
 * GET    /api/auth/passkeys: the signed-in member's passkeys.
 * POST   /api/auth/passkeys/register/options, then /api/auth/passkeys/register {challengeId, response, name}.
 * DELETE /api/auth/passkeys/{id}.
 */
export default endpoints('auth-passkeys', [
  {
    method: 'GET',
    path: '/api/auth/passkeys',
    access: 'account',
    work: async ({ db, user }) => json(200, { items: await listPasskeys(db, user.id) }),
  },
  {
    method: 'POST',
    path: '/api/auth/passkeys/register/options',
    access: 'account',
    work: unlessPasskeyFirst(async ({ db, user, url }) => json(200, await registrationOptions(db, user, url))),
  },
  {
    method: 'POST',
    path: '/api/auth/passkeys/register',
    access: 'account',
    work: unlessPasskeyFirst(async (call) => {
      const { db, user, url, actor } = call;
      const input = await call.body(ceremonySchema.extend({ name: passkeyNameSchema }), (fields) =>
        jsonError(400, fields.name ?? UNANSWERED, { fields }),
      );
      const added = await registerPasskey(
        db,
        user,
        url,
        {
          challengeId: input.challengeId,
          response: input.response as unknown as RegistrationResponseJSON,
          name: input.name,
        },
        actor,
      );
      if (added === 'duplicate') return jsonError(409, DUPLICATE_KEY);
      if (added === 'unverified') return jsonError(400, 'No pudimos verificar la llave de acceso. Intenta de nuevo.');
      return json(201, { items: await listPasskeys(db, user.id) });
    }),
  },
  {
    method: 'DELETE',
    path: '/api/auth/passkeys/:id([A-Za-z0-9_\\-]{16,1400})',
    access: 'account',
    work: unlessPasskeyFirst(async ({ db, user, params, actor }) => {
      const removed = await removePasskey(db, user.id, params.id as string, actor);
      return removed ? empty(204) : jsonError(404, 'No encontramos esta llave de acceso.');
    }),
  },
]);

export const config: Config = {
  path: [
    '/api/auth/passkeys',
    '/api/auth/passkeys/register/options',
    '/api/auth/passkeys/register',
    '/api/auth/passkeys/:id([A-Za-z0-9_\\-]{16,1400})',
  ],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
