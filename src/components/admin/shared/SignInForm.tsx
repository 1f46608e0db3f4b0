import { type FormEvent, useState } from 'react';
import { loginSchema } from '../../../lib/forms/credentials.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { TextField } from '../../forms/fields.tsx';
import { type ApiError, api } from '../api.ts';
import { passkeysSupported, signInWithPasskey } from '../passkeys.ts';
import { FormActions } from './FormActions.tsx';

/**
 * The sign-in of SignInAgain's dialog (password or passkey, as /auth offers),
 * loaded when a session first ends: `onSignedIn` once the session cookie is back.
 */
export default function SignInForm({
  email,
  onSignedIn,
  onCancel,
}: {
  email: string;
  onSignedIn(): Promise<void>;
  onCancel(): void;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const parsed = loginSchema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    setFailure(null);
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    setBusy(true);
    const refused = await api('/api/auth/login', { method: 'POST', json: parsed.data, anonymous: true }).then(
      () => null,
      (error: ApiError) => error,
    );
    setBusy(false);
    if (refused) return setFailure(refused.body.error ?? 'Credenciales incorrectas');
    await onSignedIn();
  }

  async function passkey() {
    setFailure(null);
    const result = await signInWithPasskey();
    if (result.ok) return onSignedIn();
    if (result.error) setFailure(result.error);
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Entrar de nuevo">
      <p>Entra de nuevo para guardar tu cambio. No perderás lo que escribiste.</p>
      <TextField
        idPrefix="again-"
        name="email"
        label="Correo electrónico"
        type="email"
        autoComplete="username"
        defaultValue={email}
        error={errors.email}
        mark={false}
      />
      <TextField
        idPrefix="again-"
        name="password"
        label="Contraseña"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        mark={false}
      />
      <FormActions
        error={failure}
        onCancel={onCancel}
        submit={busy ? 'Verificando…' : 'Entrar y guardar'}
        disabled={busy}
      >
        {passkeysSupported() && (
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={passkey}>
            Entrar con llave de acceso
          </button>
        )}
      </FormActions>
    </form>
  );
}
