import type { Config, Context } from '@netlify/functions';
import {
  LINK_TOKEN,
  RECOVERY_SENT,
  RECOVERY_UNAVAILABLE,
  RESET_INVALID,
  recoverySchema,
  resetSchema,
} from '../../src/lib/admin/team.ts';
import { fieldMessages } from '../../src/lib/forms/errors.ts';
import { refuseCrossOrigin } from '../../src/server/auth/guard.ts';
import { hashPassword, inPasswordSlot, PASSWORDS_BUSY, PasswordsBusy } from '../../src/server/auth/passwords.ts';
import { getConfig, publicSiteUrl } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { requestAddress } from '../../src/server/http/client-address.ts';
import type { RequestContext } from '../../src/server/http/handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { sendAccountEmail } from '../../src/server/team/account-mail.ts';
import { createReset, findReset, redeemReset } from '../../src/server/team/resets.ts';

/**
 * Password recovery ("¿Olvidaste tu contraseña?"):
 * POST /api/auth/recovery {email}: 202 with the same answer whether or not the
 *   e-mail is a member's, and whether or not a limit held it back (the link,
 *   valid 30 minutes, is e-mailed after the answer: at most 3 per member and
 *   10 per address in an hour); 409 when no SMTP is configured.
 * POST /api/auth/recovery/check {token}: 200 {email} or 410.
 * POST /api/auth/recovery/reset {token, password}: 204; every session of the member ends.
 */
export default logged('auth-recovery', async (request: Request, context: Pick<Context, 'ip'> & RequestContext) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readJsonObject(request);
  if (body instanceof Response) return body;
  const url = new URL(request.url);
  try {
    if (url.pathname.endsWith('/check')) {
      const token = typeof body.token === 'string' && LINK_TOKEN.test(body.token) ? body.token : null;
      const reset = token ? await withDatabase((db) => findReset(db, token)) : null;
      return reset ? json(200, reset) : jsonError(410, RESET_INVALID);
    }
    if (url.pathname.endsWith('/reset')) {
      const parsed = resetSchema.safeParse(body);
      if (!parsed.success) {
        const fields = fieldMessages(parsed.error);
        if (fields.token) return jsonError(410, RESET_INVALID);
        return jsonError(400, 'Revisa la contraseña.', { fields });
      }
      return await withDatabase(async (db) => {
        if (!(await findReset(db, parsed.data.token))) return jsonError(410, RESET_INVALID);
        const passwordHash = await inPasswordSlot(() => hashPassword(parsed.data.password));
        const done = await redeemReset(db, parsed.data.token, passwordHash, requestAddress(context));
        return done ? empty(204) : jsonError(410, RESET_INVALID);
      });
    }
    const email = getConfig().notifications.email;
    if (!email) return jsonError(409, RECOVERY_UNAVAILABLE);
    const parsed = recoverySchema.safeParse(body);
    if (!parsed.success) return jsonError(400, 'Revisa el correo.', { fields: fieldMessages(parsed.error) });
    const ip = requestAddress(context);
    // After the answer, so its time says nothing about whether the e-mail exists,
    // nor whether a limit held it back: the answer is the same whatever happens.
    const work = withDatabase(async (db) => {
      const reset = await createReset(db, parsed.data.email, { via: 'email', ip });
      // One line per request, never the e-mail: `none` is an unknown address or a limit reached.
      logJson('info', { event: 'recovery_handled', outcome: reset ? 'link' : 'none' });
      if (!reset) return;
      // Our configured address, never the request's Host or X-Forwarded-Host (an attacker writes those).
      const link = `${publicSiteUrl()}/auth/restablecer#${reset.token}`;
      sendAccountEmail(context, {
        to: parsed.data.email,
        subject: 'Restablece tu contraseña del panel',
        text: `Hola, ${reset.name}. Para elegir una contraseña nueva abre este enlace (vale 30 minutos y una sola vez):\n\n${link}\n\nSi no lo pediste, ignora este correo: tu contraseña no cambia.`,
        link,
        expiresAt: reset.expiresAt,
      });
    }).catch((error: unknown) => logJson('error', { event: 'recovery_not_sent', error: (error as Error).message }));
    if (context.waitUntil) context.waitUntil(work);
    return json(202, { message: RECOVERY_SENT });
  } catch (error) {
    if (error instanceof PasswordsBusy) return json(429, { error: PASSWORDS_BUSY }, { 'Retry-After': '5' });
    logJson('error', { function: 'auth-recovery', error: (error as Error).message });
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = {
  path: ['/api/auth/recovery', '/api/auth/recovery/check', '/api/auth/recovery/reset'],
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
