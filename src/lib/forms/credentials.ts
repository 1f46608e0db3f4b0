import * as z from 'zod/mini';
import './errors.ts'; // no library wording reaches a visitor

/** Minimum length of an administrator's password. */
export const PASSWORD_MIN = 8;
/** The longest e-mail address (RFC 5321's path limit). */
export const EMAIL_MAX = 254;
/** The longest password a form sends: far above bcrypt's 72 bytes, so the schema can say why. */
export const PASSWORD_INPUT_MAX = 1024;
/** bcrypt reads at most 72 bytes; longer passwords would be silently cut. */
const PASSWORD_MAX_BYTES = 72;

/** An account's e-mail address: trimmed, lower-cased, required with `requiredMessage`. */
export function accountEmail(requiredMessage: string) {
  return z.pipe(
    z
      .string({ error: requiredMessage })
      .check(
        z.trim(),
        z.toLowerCase(),
        z.minLength(1, requiredMessage),
        z.maxLength(EMAIL_MAX, 'El correo es demasiado largo.'),
      ),
    z.email('Escribe un correo válido, por ejemplo nombre@correo.com.'),
  );
}

const email = accountEmail('Escribe tu correo electrónico.');

/** Signing in: any non-empty password is checked against the stored hash. */
export const loginSchema = z.object({
  email,
  password: z
    .string({ error: 'Escribe tu contraseña.' })
    .check(z.minLength(1, 'Escribe tu contraseña.'), z.maxLength(PASSWORD_INPUT_MAX)),
});

/** Every new password (setup, invitation, change): at least 8 characters, at most bcrypt's 72 bytes. */
export const passwordSchema = z.string({ error: 'Escribe una contraseña.' }).check(
  z.minLength(PASSWORD_MIN, `Usa al menos ${PASSWORD_MIN} caracteres.`),
  z.refine(
    (password: string) => new TextEncoder().encode(password).byteLength <= PASSWORD_MAX_BYTES,
    'La contraseña es demasiado larga: usa como máximo 72 caracteres (las letras con acento cuentan doble).',
  ),
);

/** The one-time setup: the first administrator's password rules. */
export const setupSchema = z.object({ email, password: passwordSchema });
