import { type FormEvent, useEffect, useState } from 'react';
import { acceptInvitationSchema, INVITATION_INVALID } from '../../../lib/admin/team.ts';
import { flashToast } from '../../../lib/client/flash.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { SubmitButton, TextField } from '../../forms/fields.tsx';
import { type ApiError, api, explain, fieldErrors, goTo } from '../api.ts';
import { PasswordField } from '../shared/CredentialFields.tsx';

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
      const result = await api<{ email?: string; roleLabel?: string }>('/api/auth/invitation/check', {
        method: 'POST',
        json: { token: fromLink },
        anonymous: true,
      }).catch((error: ApiError) => error);
      if (!(result instanceof Error) && result.email) {
        setState({ step: 'form', email: result.email, roleLabel: result.roleLabel ?? '' });
      } else if (!(result instanceof Error) || result.status !== 410) {
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
    const failure = await api('/api/auth/invitation', { method: 'POST', json: parsed.data, anonymous: true }).then(
      () => null,
      (error: ApiError) => error,
    );
    setBusy(false);
    if (!failure) {
      flashToast({ title: 'Cuenta creada', description: 'Bienvenido al panel de prospectos.' });
      return goTo('/admin');
    }
    if (failure.status === 410) return setState({ step: 'invalid', message: failure.body.error ?? INVITATION_INVALID });
    const fields = fieldErrors(failure);
    if (fields) setErrors(fields);
    showToast({ title: 'No se pudo crear tu cuenta', description: explain(failure), variant: 'destructive' });
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
      <PasswordField purpose="new" error={errors.password} />
      <SubmitButton busy={busy} label="Crear mi cuenta" busyLabel="Creando..." />
    </form>
  );
}
