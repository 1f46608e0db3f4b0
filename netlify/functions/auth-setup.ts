import type { Config } from '@netlify/functions';
import { setupSchema } from '../../src/lib/forms/credentials.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import { hashPassword, inPasswordSlot, PASSWORDS_BUSY, PasswordsBusy } from '../../src/server/auth/passwords.ts';
import { signIn } from '../../src/server/auth/sign-in.ts';
import { adminExists, createFirstAdmin, displayName, sessionAnswer } from '../../src/server/auth/users.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { recordActivity } from '../../src/server/team/activity.ts';

const ALREADY_DONE = 'Ya existe una cuenta de administrador. Inicia sesión.';

/**
 * POST /api/auth/setup {email, password}: creates the first administrator,
 * only while there is none (409 afterwards, before any hashing: a refused
 * setup costs no CPU), and signs them in.
 */
export default logged('auth-setup', async (request: Request): Promise<Response> => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const parsed = setupSchema.safeParse(body);
  if (!parsed.success) {
    return jsonError(400, 'Revisa el correo y la contraseña.', { fields: fieldMessages(parsed.error) });
  }

  try {
    return await withDatabase(async (db) => {
      if (await adminExists(db)) return jsonError(409, ALREADY_DONE);
      // Checked again once a slot is ours: setups that queued behind the winner hash nothing.
      const passwordHash = await inPasswordSlot(async () =>
        (await adminExists(db)) ? null : hashPassword(parsed.data.password),
      );
      const admin = passwordHash && (await createFirstAdmin(db, parsed.data.email, passwordHash));
      if (!admin) return jsonError(409, ALREADY_DONE);
      await recordActivity(db, {
        actor: { id: admin.id, name: displayName(admin) },
        kind: 'setup',
        summary: `Creó la cuenta de administrador ${admin.email}`,
      });
      return json(201, sessionAnswer(admin), { 'Set-Cookie': await signIn(db, request, admin) });
    });
  } catch (error) {
    if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
    logJson('error', { function: 'auth', event: 'setup', error: (error as Error).message });
    return jsonError(503, 'Error al configurar la cuenta de administrador');
  }
});

export const config: Config = {
  path: '/api/auth/setup',
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
