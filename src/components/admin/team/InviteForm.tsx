import { type FormEvent, useState } from 'react';
import { invitationSchema, ROLE_LABELS, ROLES } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { fieldMessages } from '../../../lib/forms/errors.ts';
import { SelectField, SubmitButton } from '../../forms/fields.tsx';
import { fieldErrors } from '../api.ts';
import { EmailField } from '../shared/CredentialFields.tsx';
import { card, Section } from '../shared/ui.tsx';
import { useInvite } from './queries.ts';

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** "Invitar a alguien": e-mail and role; the one-time link is shown to copy (and e-mailed when SMTP is on). */
export function InviteForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [link, setLink] = useState<{ url: string; emailed: boolean; email: string } | null>(null);
  const invite = useInvite();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = invitationSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: (answer) => {
        setLink({ url: answer.link, emailed: answer.emailed === true, email: parsed.data.email });
        form.reset();
      },
      onError: (error) => setErrors(fieldErrors(error) ?? {}),
    });
  }

  return (
    <Section title="Invitar a alguien" className={`grid gap-3 ${card}`}>
      <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
        <EmailField autoComplete="off" idPrefix="invite-" error={errors.email} />
        <SelectField
          name="role"
          label="Rol"
          options={ROLE_OPTIONS}
          defaultValue="asesor"
          required
          idPrefix="invite-"
          error={errors.role}
        />
        <SubmitButton busy={invite.isPending} label="Crear invitación" busyLabel="Creando..." />
      </form>
      {link && (
        <div role="status" className="grid gap-2 rounded-xl bg-sand-100 p-3">
          <p className="text-sm">
            {link.emailed
              ? `Enviamos la invitación a ${link.email}. También puedes compartir este enlace (vale 72 horas y una sola vez):`
              : `Comparte este enlace con ${link.email} (vale 72 horas y una sola vez; no se volverá a mostrar):`}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <input
              readOnly
              value={link.url}
              aria-label="Enlace de invitación"
              className="field-input min-w-0 flex-1 font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className="btn btn-outline min-h-11 px-4 py-2"
              onClick={() =>
                navigator.clipboard
                  .writeText(link.url)
                  .then(() => showToast({ title: 'Enlace copiado' }))
                  .catch(() => showToast({ title: 'Copia el enlace a mano', variant: 'destructive' }))
              }
            >
              Copiar enlace
            </button>
          </div>
        </div>
      )}
    </Section>
  );
}
