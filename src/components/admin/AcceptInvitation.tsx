import { type FormEvent, useEffect, useState } from 'react';
import { acceptInvitationSchema, INVITATION_INVALID } from '../../lib/admin/team.ts';
import { flashToast } from '../../lib/client/flash.ts';
import { showToast } from '../../lib/client/toast.ts';
import { PASSWORD_MIN } from '../../lib/forms/credentials.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { SubmitButton, TextField } from '../forms/fields.tsx';
import { apiCall, goTo } from './api.ts';

type State =
  | { step: 'checking' }
  | { step: 'invalid'; message: string }
  | { step: 'form'; email: string; roleLabel: string };

/**
 * /auth/invitacion#<token>: the invitee chooses a name and a password. The
 * token stays in the address's fragment (never sent with the page request)
 * and travels to the API in a POST body.
 */
export default function AcceptInvitation() {
  const [state, setState] = useState<State>({ step: 'checking' });
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const fromLink = window.location.hash.slice(1);
    setToken(fromLink);
    (async () => {
      const result = await apiCall<{ email?: string; roleLabel?: string; error?: string }>(
        '/api/auth/invitation/check',
        { method: 'POST', body: JSON.stringify({ token: fromLink }) },
      ).catch(() => null);
      if (result?.ok && result.body.email) {
        setState({ step: 'form', email: result.body.email, roleLabel: result.body.roleLabel ?? '' });
      } else if (result && result.status !== 410) {
        setState({
          step: 'invalid',
          message: 'No pudimos revisar la invitación. Recarga la página para intentarlo de nuevo.',
        });
      } else {
        setState({ step: 'invalid', message: INVITATION_INVALID });
      }
    })();
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const values = { ...Object.fromEntries(new FormData(event.currentTarget)), token };
    const parsed = acceptInvitationSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    setBusy(true);
    const result = await apiCall<{ error?: string; fields?: Record<string, string> }>('/api/auth/invitation', {
      method: 'POST',
      body: JSON.stringify(parsed.data),
    }).catch(() => null);
    setBusy(false);
    if (result?.ok) {
      flashToast({ title: 'Cuenta creada', description: 'Bienvenido al panel de prospectos.' });
      return goTo('/admin');
    }
    if (result?.status === 410) return setState({ step: 'invalid', message: result.body.error ?? INVITATION_INVALID });
    if (result?.body.fields) setErrors(result.body.fields);
    showToast({
      title: 'No se pudo crear tu cuenta',
      description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
      variant: 'destructive',
    });
  }

  if (state.step === 'checking') {
    return (
      <p className="py-10 text-center text-brand-800" role="status">
        Revisando tu invitación...
      </p>
    );
  }
  if (state.step === 'invalid') {
    return (
      <div className="grid gap-4" role="alert">
        <h1 className="text-2xl font-bold">Invitación no válida</h1>
        <p className="text-brand-800">{state.message}</p>
        <a href="/auth" className="btn btn-outline justify-self-start">
          Ir al acceso
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="grid gap-5" aria-labelledby="invitation-title">
      <div>
        <h1 id="invitation-title" className="text-2xl font-bold">
          Únete al equipo
        </h1>
        <p className="mt-1 text-brand-800">
          Te invitaron como {state.roleLabel.toLowerCase()} con el correo <strong>{state.email}</strong>. Elige tu
          nombre y una contraseña.
        </p>
      </div>
      <TextField name="name" label="Tu nombre" autoComplete="name" required maxLength={120} error={errors.name} />
      <TextField
        name="password"
        label="Contraseña"
        type="password"
        autoComplete="new-password"
        required
        hint={`Mínimo ${PASSWORD_MIN} caracteres.`}
        maxLength={1024}
        error={errors.password}
      />
      <SubmitButton busy={busy} label="Crear mi cuenta" busyLabel="Creando..." />
    </form>
  );
}
