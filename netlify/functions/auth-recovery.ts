import type { Config } from '@netlify/functions';
import {
  LINK_TOKEN,
  RECOVERY_SENT,
  RECOVERY_UNAVAILABLE,
  RESET_INVALID,
  recoverySchema,
  resetSchema,
} from '../../src/lib/admin/team.ts';
import { hashPassword, inPasswordSlot } from '../../src/server/auth/passwords.ts';
import { getConfig, publicSiteUrl } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
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
export default endpoints('auth-recovery', [
  {
    method: 'POST',
    path: '/api/auth/recovery',
    access: 'public',
    async work({ ip, context, jsonObject, body }) {
      await jsonObject();
      if (!getConfig().notifications.email) return jsonError(409, RECOVERY_UNAVAILABLE);
      const { email } = await body(recoverySchema, 'Revisa el correo.');
      // After the answer, so its time says nothing about whether the e-mail exists,
      // nor whether a limit held it back: the answer is the same whatever happens.
      const work = withDatabase(async (db) => {
        const reset = await createReset(db, email, { via: 'email', ip });
        // One line per request, never the e-mail: `none` is an unknown address or a limit reached.
        logJson('info', { event: 'recovery_handled', outcome: reset ? 'link' : 'none' });
        if (!reset) return;
        // Our configured address, never the request's Host or X-Forwarded-Host (an attacker writes those).
        const link = `${publicSiteUrl()}/auth/restablecer#${reset.token}`;
        await sendAccountEmail(db, context, {
          to: email,
          subject: 'Restablece tu contraseña del panel',
          text: `Hola, ${reset.name}. Para elegir una contraseña nueva abre este enlace (vale 30 minutos y una sola vez):\n\n${link}\n\nSi no lo pediste, ignora este correo: tu contraseña no cambia.`,
          link,
          expiresAt: reset.expiresAt,
        });
      }).catch((error: unknown) => logJson('error', { event: 'recovery_not_sent', error: (error as Error).message }));
      context.waitUntil?.(work);
      return json(202, { message: RECOVERY_SENT });
    },
  },
  {
    method: 'POST',
    path: '/api/auth/recovery/check',
    access: 'public',
    async work({ jsonObject, database }) {
      const { token } = await jsonObject();
      const reset =
        typeof token === 'string' && LINK_TOKEN.test(token) ? await database((db) => findReset(db, token)) : null;
      return reset ? json(200, reset) : jsonError(410, RESET_INVALID);
    },
  },
  {
    method: 'POST',
    path: '/api/auth/recovery/reset',
    access: 'public',
    async work({ ip, body, database }) {
      const { token, password } = await body(resetSchema, (fields) =>
        fields.token ? jsonError(410, RESET_INVALID) : jsonError(400, 'Revisa la contraseña.', { fields }),
      );
      return database(async (db) => {
        if (!(await findReset(db, token))) return jsonError(410, RESET_INVALID);
        const passwordHash = await inPasswordSlot(() => hashPassword(password));
        return (await redeemReset(db, token, passwordHash, ip)) ? empty(204) : jsonError(410, RESET_INVALID);
      });
    },
  },
]);

export const config: Config = {
  path: ['/api/auth/recovery', '/api/auth/recovery/check', '/api/auth/recovery/reset'],
  rateLimit: { windowLimit: 10, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
