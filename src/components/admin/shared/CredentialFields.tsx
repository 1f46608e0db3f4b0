import { EMAIL_MAX, PASSWORD_INPUT_MAX, PASSWORD_MIN } from '../../../lib/forms/credentials.ts';
import { TextField } from '../../forms/fields.tsx';

/** An account's e-mail, with the schema's length limit (sign-in, recovery, invitations). */
export function EmailField({
  error,
  autoComplete = 'username',
  idPrefix,
}: {
  error?: string | undefined;
  /** "off" where the address is someone else's (an invitation). */
  autoComplete?: 'username' | 'off';
  idPrefix?: string;
}) {
  return (
    <TextField
      name="email"
      label="Correo electrónico"
      type="email"
      autoComplete={autoComplete}
      required
      maxLength={EMAIL_MAX}
      error={error}
      {...(idPrefix ? { idPrefix } : {})}
    />
  );
}

/**
 * A password: `current` (the one the member has) or `new` (one being chosen,
 * with the schema's minimum as its hint).
 */
export function PasswordField({
  purpose,
  label = 'Contraseña',
  name = 'password',
  error,
}: {
  purpose: 'current' | 'new';
  label?: string;
  name?: string;
  error?: string | undefined;
}) {
  return (
    <TextField
      name={name}
      label={label}
      type="password"
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      required
      hint={purpose === 'new' ? `Mínimo ${PASSWORD_MIN} caracteres.` : undefined}
      maxLength={PASSWORD_INPUT_MAX}
      error={error}
    />
  );
}
