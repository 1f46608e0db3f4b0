import { type FormEvent, useState } from 'react';
import { loginSchema } from '../../../lib/forms/credentials.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
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
      <div className="field">
        <label className="field-label" htmlFor="again-email">
          Correo electrónico
        </label>
        <input
          id="again-email"
          name="email"
          type="email"
          className="field-input"
          autoComplete="username"
          defaultValue={email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? 'again-email-error' : undefined}
        />
        {errors.email && (
          <p id="again-email-error" className="field-error">
            {errors.email}
          </p>
        )}
      </div>
      <div className="field">
        <label className="field-label" htmlFor="again-password">
          Contraseña
        </label>
        <input
          id="again-password"
          name="password"
          type="password"
          className="field-input"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'again-password-error' : undefined}
        />
        {errors.password && (
          <p id="again-password-error" className="field-error">
            {errors.password}
          </p>
        )}
      </div>
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
