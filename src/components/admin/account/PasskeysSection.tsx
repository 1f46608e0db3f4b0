import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type PasskeyView, passkeyNameSchema } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { SubmitButton, TextField } from '../../forms/fields.tsx';
import { api, explain } from '../api.ts';
import { keys } from '../keys.ts';
import { addPasskey, passkeysSupported } from '../passkeys.ts';
import { card, Loading, Section } from '../shared/ui.tsx';

/** The member's passkeys: add one (named), remove one. */
export function PasskeysSection() {
  const passkeys = useQuery({
    queryKey: keys.passkeys,
    queryFn: () => api<{ items: PasskeyView[] }>('/api/auth/passkeys'),
  });
  const client = useQueryClient();
  const removal = useMutation({
    mutationFn: (id: string) => api(`/api/auth/passkeys/${id}`, { method: 'DELETE' }),
    meta: { errorTitle: 'No se pudo eliminar la llave', invalidates: [keys.passkeys] },
  });
  const items = passkeys.data?.items ?? null;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = passkeyNameSchema.safeParse(new FormData(form).get('passkey-name') ?? '');
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Ponle un nombre a la llave.');
    setError(null);
    setBusy(true);
    const result = await addPasskey(parsed.data);
    setBusy(false);
    if (!result.ok) {
      if (result.error)
        showToast({ title: 'No se agregó la llave', description: result.error, variant: 'destructive' });
      return;
    }
    form.reset();
    showToast({
      title: 'Llave de acceso agregada',
      description: 'Ya puedes entrar con ella en lugar de la contraseña.',
    });
    await client.invalidateQueries({ queryKey: keys.passkeys });
  }

  function remove(id: string, label: string) {
    if (!window.confirm(`¿Eliminar la llave de acceso «${label}»?`)) return;
    removal.mutate(id, { onSuccess: () => showToast({ title: 'Llave de acceso eliminada' }) });
  }

  return (
    <Section title="Llaves de acceso" className={`grid max-w-lg gap-3 ${card}`}>
      <p className="text-sm text-brand-800">
        Entra con la huella, el rostro o el PIN de tu dispositivo en lugar de la contraseña.
      </p>
      {passkeys.isError ? (
        <p role="alert" className="text-brand-800">
          {explain(passkeys.error, 'No se pudieron cargar tus llaves de acceso.')}
        </p>
      ) : items === null ? (
        <Loading text="Cargando llaves..." />
      ) : items.length === 0 ? (
        <p className="text-brand-800">Todavía no tienes llaves de acceso.</p>
      ) : (
        <ul className="grid gap-2">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="min-w-0 wrap-anywhere">
                {item.name} · creada el {formatShortDate(item.createdAt)}
                {item.lastUsedAt ? ` · último uso ${formatShortDate(item.lastUsedAt)}` : ''}
              </span>
              <button
                type="button"
                className="btn btn-outline min-h-11 px-4 py-2"
                onClick={() => remove(item.id, item.name)}
                aria-label={`Eliminar la llave ${item.name}`}
              >
                Eliminar
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form noValidate onSubmit={add} className="grid gap-3">
          <TextField
            name="passkey-name"
            required
            label="Nombre de la llave"
            hint="Por ejemplo: Teléfono de trabajo."
            maxLength={80}
            error={error ?? undefined}
          />
          <SubmitButton busy={busy} label="Agregar llave de acceso" busyLabel="Esperando al dispositivo..." />
        </form>
      ) : (
        <p className="text-sm text-brand-800">Este navegador no permite llaves de acceso.</p>
      )}
    </Section>
  );
}
