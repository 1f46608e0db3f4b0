import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { flashToast } from '../../../lib/client/flash.ts';
import { loginSchema } from '../../../lib/forms/credentials.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { type ApiError, api, goTo, onSessionLost } from '../api.ts';
import { keys } from '../keys.ts';
import { passkeysSupported, signInWithPasskey } from '../passkeys.ts';
import { Dialog } from './Dialog.tsx';

interface SessionAnswer {
  user?: { id: string; email: string } | null;
}

/**
 * The sign-in of /auth in a dialog, for a session that ended (8 hours, or
 * closed on another device) while the member worked: whatever they were
 * saving waits (api.ts) and is sent once they are in again, as the same
 * member; the page, its forms and what was typed stay as they were. Another
 * account signing in goes to the panel's start instead (the change was the
 * other member's). "Cancelar" gives up: the change is not saved, the form
 * keeps it and says so.
 */
export function SignInAgain() {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const settle = useRef<((signedIn: boolean) => void) | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const member = client.getQueryData<SessionAnswer>(keys.session)?.user ?? null;

  useEffect(
    () =>
      onSessionLost(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setErrors({});
            setFailure(null);
            setOpen(true);
          }),
      ),
    [],
  );

  function finish(signedIn: boolean) {
    setOpen(false);
    settle.current?.(signedIn);
    settle.current = null;
  }

  /** In again: the same member's change goes on; another account starts over on the panel. */
  async function signedIn() {
    const now = await api<SessionAnswer>('/api/auth/session', { anonymous: true }).catch(() => null);
    if (member && now?.user && now.user.id !== member.id) {
      flashToast({ title: 'Entraste con otra cuenta', description: 'El cambio de la otra cuenta no se guardó.' });
      goTo('/admin');
      return;
    }
    finish(true);
  }

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
    await signedIn();
  }

  async function passkey() {
    setFailure(null);
    const result = await signInWithPasskey();
    if (result.ok) return signedIn();
    if (result.error) setFailure(result.error);
  }

  return (
    <Dialog open={open} title="Tu sesión terminó" onClose={() => finish(false)}>
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
            defaultValue={member?.email ?? ''}
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
            autoFocus
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'again-password-error' : undefined}
          />
          {errors.password && (
            <p id="again-password-error" className="field-error">
              {errors.password}
            </p>
          )}
        </div>
        {failure && (
          <p role="alert" className="field-error">
            {failure}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={() => finish(false)}>
            Cancelar
          </button>
          {passkeysSupported() && (
            <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={passkey}>
              Entrar con llave de acceso
            </button>
          )}
          <button type="submit" className="btn btn-primary min-h-11 px-4 py-2" disabled={busy}>
            {busy ? 'Verificando…' : 'Entrar y guardar'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
