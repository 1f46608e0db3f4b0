import type { Config } from '@netlify/functions';
import { setupSchema } from '../../src/lib/forms/credentials.ts';
import { hashPassword, inPasswordSlot } from '../../src/server/auth/passwords.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { adminExists, createFirstAdmin, sessionAnswer } from '../../src/server/auth/users.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const ALREADY_DONE = 'Ya existe una cuenta de administrador. Inicia sesión.';

/**
 * POST /api/auth/setup {email, password}: creates the first administrator,
 * only while there is none (409 afterwards, before any hashing: a refused
 * setup costs no CPU), and signs them in.
 */
export default endpoints(
  'auth-setup',
  [
    {
      method: 'POST',
      path: '/api/auth/setup',
      access: 'public',
      async work({ request, body, database }) {
        const { email, password } = await body(setupSchema, 'Revisa el correo y la contraseña.');
        return database(async (db) => {
          if (await adminExists(db)) return jsonError(409, ALREADY_DONE);
          // Checked again once a slot is ours: setups that queued behind the winner hash nothing.
          const passwordHash = await inPasswordSlot(async () =>
            (await adminExists(db)) ? null : hashPassword(password),
          );
          const admin = passwordHash && (await createFirstAdmin(db, email, passwordHash));
          if (!admin) return jsonError(409, ALREADY_DONE);
          return json(201, sessionAnswer(admin), { 'Set-Cookie': await signIn(db, request, admin) });
        });
      },
    },
  ],
  { unavailable: 'Error al configurar la cuenta de administrador' },
);

export const config: Config = {
  path: '/api/auth/setup',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
