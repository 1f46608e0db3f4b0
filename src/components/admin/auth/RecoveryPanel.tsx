import { type FormEvent, useEffect, useState } from 'react';
import { RECOVERY_SENT, RESET_INVALID, recoverySchema, resetSchema } from '../../../lib/admin/team.ts';
import { flashToast } from '../../../lib/client/flash.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { SubmitButton } from '../../forms/fields.tsx';
import { type ApiError, api, explain, fieldErrors, goTo } from '../api.ts';
import { EmailField, PasswordField } from '../shared/CredentialFields.tsx';

/**
 * /auth/recuperar (`mode="request"`): asks for the e-mail; the answer is the
 * same whether or not it belongs to someone. /auth/restablecer#<token>
 * (`mode="reset"`): the new password through the one-time link.
 */
export default function RecoveryPanel({ mode }: { mode: 'request' | 'reset' }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [reset, setReset] = useState<{ token: string; email: string } | null>(null);
  // The request form is in the page's HTML: until this island runs, a press would send it as a plain GET.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setReady(true);
    if (mode !== 'reset') return;
    const token = window.location.hash.slice(1);
    api<{ email?: string }>('/api/auth/recovery/check', { method: 'POST', json: { token }, anonymous: true }).then(
      (answer) => (answer.email ? setReset({ token, email: answer.email }) : setInvalid(RESET_INVALID)),
      (error: ApiError) =>
        setInvalid(
          error.status === 0
            ? 'No pudimos revisar el enlace. Recarga la página para intentarlo de nuevo.'
            : (error.body.error ?? RESET_INVALID),
        ),
    );
  }, [mode]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed =
      mode === 'request' ? recoverySchema.safeParse(values) : resetSchema.safeParse({ ...values, token: reset?.token });
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    setBusy(true);
    const endpoint = mode === 'request' ? '/api/auth/recovery' : '/api/auth/recovery/reset';
    const result = await api<{ message?: string }>(endpoint, {
      method: 'POST',
      json: parsed.data,
      anonymous: true,
    }).then(
      (answer) => ({ answer }),
      (error: ApiError) => ({ error }),
    );
    setBusy(false);
    if ('answer' in result && mode === 'request') return setDone(result.answer.message ?? RECOVERY_SENT);
    if ('answer' in result) {
      flashToast({ title: 'Contraseña actualizada', description: 'Inicia sesión con tu contraseña nueva.' });
      return goTo('/auth');
    }
    const { error } = result;
    if (error.status === 410) return setInvalid(error.body.error ?? RESET_INVALID);
    const fields = fieldErrors(error);
    if (fields) setErrors(fields);
    showToast({
      title: mode === 'request' ? 'No se pudo enviar el enlace' : 'No se pudo cambiar la contraseña',
      description: explain(error),
      variant: 'destructive',
    });
  }

  if (invalid) {
    return (
      <div role="alert" className="grid gap-4">
        <h1 className="text-2xl font-bold">Enlace no válido</h1>
        <p className="text-brand-800">{invalid}</p>
        <a href="/auth/recuperar" className="btn btn-outline justify-self-start">
          Pedir un enlace nuevo
        </a>
      </div>
    );
  }
  if (done) {
    return (
      <div role="status" className="grid gap-4">
        <h1 className="text-2xl font-bold">Revisa tu correo</h1>
        <p className="text-brand-800">{done}</p>
        <a href="/auth" className="btn btn-outline justify-self-start">
          Volver al acceso
        </a>
      </div>
    );
  }
  if (mode === 'reset' && !reset) {
    return (
      <p className="py-10 text-center text-brand-800" role="status">
        Revisando el enlace...
      </p>
    );
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-5"
      aria-labelledby="recovery-title"
      data-enhanced={ready ? 'ready' : 'pending'}
    >
      <div>
        <h1 id="recovery-title" className="text-2xl font-bold">
          {mode === 'request' ? 'Recupera tu acceso' : 'Elige una contraseña nueva'}
        </h1>
        <p className="mt-1 text-brand-800">
          {mode === 'request'
            ? 'Escribe el correo con el que entras al panel y te enviaremos un enlace.'
            : `Para ${reset?.email}. Al guardarla se cerrarán todas tus sesiones y se quitarán tus llaves de acceso (puedes agregarlas de nuevo desde Mi cuenta).`}
        </p>
      </div>
      {mode === 'request' ? (
        <EmailField error={errors.email} />
      ) : (
        <PasswordField purpose="new" label="Contraseña nueva" error={errors.password} />
      )}
      <SubmitButton
        busy={busy}
        label={mode === 'request' ? 'Enviar enlace' : 'Guardar contraseña'}
        busyLabel="Enviando..."
      />
      <a href="/auth" className="justify-self-start text-sm font-semibold text-brand-800 underline">
        Volver al acceso
      </a>
    </form>
  );
}
