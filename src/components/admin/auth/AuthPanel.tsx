import { type FormEvent, useEffect, useState } from 'react';
import { flashToast } from '../../../lib/client/flash.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { loginSchema, setupSchema } from '../../../lib/forms/credentials.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { SubmitButton } from '../../forms/fields.tsx';
import { type ApiError, api, fieldErrors, goTo } from '../api.ts';
import { signInWithPasskey } from '../passkeys.ts';
import { EmailField, PasswordField } from '../shared/CredentialFields.tsx';

type Mode = 'loading' | 'setup' | 'login';

/** /auth: the one-time setup while no administrator exists, the login form afterwards. */
export default function AuthPanel() {
  const [mode, setMode] = useState<Mode>('loading');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      const session = await api<{ user?: unknown }>('/api/auth/session', { anonymous: true }).catch(() => null);
      if (session?.user) return goTo('/admin');
      // A failing check counts as "no administrator yet" (docs/product.md §13.5).
      const exists = await api<{ exists?: boolean }>('/api/admin-exists', { anonymous: true }).catch(() => null);
      setMode(exists?.exists ? 'login' : 'setup');
    })();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = (mode === 'setup' ? setupSchema : loginSchema).safeParse(values);
    if (!parsed.success) {
      setErrors(fieldMessages(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const endpoint = mode === 'setup' ? '/api/auth/setup' : '/api/auth/login';
    const failure = await api(endpoint, { method: 'POST', json: parsed.data, anonymous: true }).then(
      () => null,
      (error: ApiError) => error,
    );
    setBusy(false);

    if (!failure) {
      flashToast(
        mode === 'setup'
          ? { title: 'Configuración exitosa', description: 'Tu cuenta de administrador está lista.' }
          : { title: 'Acceso exitoso', description: 'Bienvenido al panel de administración' },
      );
      return goTo('/admin');
    }
    if (mode === 'setup' && failure.status === 409) {
      setMode('login');
      showToast({ title: 'Error en la configuración', description: failure.body.error ?? '', variant: 'destructive' });
      return;
    }
    const fields = fieldErrors(failure);
    if (fields) setErrors(fields);
    showToast(
      mode === 'setup'
        ? {
            title: 'Error en la configuración',
            description: failure.body.error ?? 'Error al configurar la cuenta de administrador',
            variant: 'destructive',
          }
        : {
            title: 'Error de acceso',
            description: failure.body.error ?? 'Credenciales incorrectas',
            variant: 'destructive',
          },
    );
  }

  if (mode === 'loading') {
    return (
      <p className="py-10 text-center text-brand-800" role="status">
        Verificando configuración...
      </p>
    );
  }

  const setup = mode === 'setup';
  return (
    <form onSubmit={submit} noValidate className="grid gap-5" aria-labelledby="auth-title" key={mode}>
      <div>
        <h1 id="auth-title" className="text-2xl font-bold">
          Acceso administrador
        </h1>
        <p className="mt-1 text-brand-800">
          {setup ? 'Configura la cuenta de administrador por única vez' : 'Ingresa con tu cuenta de administrador.'}
        </p>
      </div>
      <EmailField error={errors.email} />
      <PasswordField purpose={setup ? 'new' : 'current'} error={errors.password} />
      <SubmitButton busy={busy} label={setup ? 'Configurar Administrador' : 'Ingresar'} busyLabel="Verificando..." />
      {!setup && (
        <>
          <button
            type="button"
            className="btn btn-outline w-full sm:w-auto"
            onClick={async () => {
              const result = await signInWithPasskey();
              if (result.ok) {
                flashToast({ title: 'Acceso exitoso', description: 'Bienvenido al panel de administración' });
                return goTo('/admin');
              }
              if (result.error)
                showToast({ title: 'Error de acceso', description: result.error, variant: 'destructive' });
            }}
          >
            Entrar con llave de acceso
          </button>
          <a href="/auth/recuperar" className="justify-self-start text-sm font-semibold text-brand-800 underline">
            ¿Olvidaste tu contraseña?
          </a>
        </>
      )}
    </form>
  );
}
