import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { passwordChangeSchema } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { SubmitButton } from '../../forms/fields.tsx';
import { api, fieldErrors } from '../api.ts';
import { PasswordField } from '../shared/CredentialFields.tsx';
import { card, Section } from '../shared/ui.tsx';

/** "Cambiar contraseña": the other sessions end, this one stays. */
export function PasswordSection() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useMutation({
    mutationFn: (passwords: { current: string; password: string }) =>
      api('/api/auth/password', { method: 'POST', json: passwords }),
    meta: { errorTitle: 'No se pudo cambiar la contraseña' },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = passwordChangeSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: () => {
        form.reset();
        showToast({ title: 'Contraseña actualizada', description: 'Cerramos tus sesiones en otros dispositivos.' });
      },
      onError: (error) => setErrors(fieldErrors(error) ?? {}),
    });
  }

  return (
    <Section title="Cambiar contraseña" className={`grid max-w-lg gap-3 ${card}`}>
      <form noValidate onSubmit={submit} className="grid gap-3">
        <PasswordField purpose="current" name="current" label="Contraseña actual" error={errors.current} />
        <PasswordField purpose="new" label="Contraseña nueva" error={errors.password} />
        <SubmitButton busy={change.isPending} label="Cambiar contraseña" busyLabel="Guardando..." />
      </form>
    </Section>
  );
}
