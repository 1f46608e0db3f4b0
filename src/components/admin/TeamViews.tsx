import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { formatShortDate } from '../../lib/admin/columns.ts';
import {
  ACTIVITY_KINDS,
  ACTIVITY_LABELS,
  type ActivityPage,
  invitationSchema,
  type PasskeyView,
  passkeyNameSchema,
  passwordChangeSchema,
  ROLE_LABELS,
  ROLES,
  type Role,
  type TeamView as Team,
  type TeamSettingsChange,
} from '../../lib/admin/team.ts';
import { showToast } from '../../lib/client/toast.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { SelectField, SubmitButton, TextField } from '../forms/fields.tsx';
import { apiCall, goTo } from './api.ts';
import { addPasskey, passkeysSupported } from './passkeys.ts';

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const card = 'rounded-2xl bg-white p-4 ring-1 ring-brand-900/10';

function LoadFailed({ retry }: { retry(): void }) {
  return (
    <div role="alert" className={`grid justify-items-start gap-3 ${card}`}>
      <p>No se pudo cargar esta vista.</p>
      <button type="button" className="btn btn-outline min-h-11 px-4 py-2" onClick={retry}>
        Reintentar
      </button>
    </div>
  );
}

/**
 * /admin#equipo (administrators): invite by e-mail and role (the one-time
 * link is shown to copy, and e-mailed when SMTP is configured), the members
 * with their role, last sign-in and state, open invitations.
 */
export function TeamView({ self }: { self: string }) {
  const [team, setTeam] = useState<Team | null>(null);
  const [failed, setFailed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<{ url: string; emailed: boolean; email: string } | null>(null);

  const load = useCallback(async () => {
    const result = await apiCall<Team>('/api/admin/team').catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) return setFailed(true);
    setFailed(false);
    setTeam(result.body);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = invitationSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    setBusy(true);
    const result = await apiCall<{ link?: string; emailed?: boolean; error?: string; fields?: Record<string, string> }>(
      '/api/admin/team/invitations',
      { method: 'POST', body: JSON.stringify(parsed.data) },
    ).catch(() => null);
    setBusy(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok || !result.body.link) {
      if (result?.body.fields) setErrors(result.body.fields);
      return showToast({
        title: 'No se pudo crear la invitación',
        description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
        variant: 'destructive',
      });
    }
    setLink({ url: result.body.link, emailed: result.body.emailed === true, email: parsed.data.email });
    form.reset();
    await load();
  }

  async function change(id: string, body: { role?: Role; active?: boolean }, done: string) {
    const result = await apiCall<{ error?: string }>(`/api/admin/team/members/${id}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
    }).catch(() => null);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      return showToast({
        title: 'No se pudo guardar el cambio',
        description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
        variant: 'destructive',
      });
    }
    showToast({ title: done });
    await load();
  }

  async function revoke(id: string) {
    const result = await apiCall(`/api/admin/team/invitations/${id}`, { method: 'DELETE' }).catch(() => null);
    if (!result?.ok) return showToast({ title: 'No se pudo revocar la invitación', variant: 'destructive' });
    showToast({ title: 'Invitación revocada' });
    await load();
  }

  if (failed) return <LoadFailed retry={load} />;
  if (!team) {
    return (
      <p role="status" className="text-brand-800">
        Cargando equipo...
      </p>
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      <section aria-labelledby="invite-title" className={`grid gap-3 ${card}`}>
        <h2 id="invite-title" className="text-xl font-bold">
          Invitar a alguien
        </h2>
        <form noValidate onSubmit={invite} className="grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
          <TextField
            name="email"
            label="Correo electrónico"
            type="email"
            autoComplete="off"
            required
            idPrefix="invite-"
            error={errors.email}
          />
          <SelectField
            name="role"
            label="Rol"
            options={ROLE_OPTIONS}
            defaultValue="asesor"
            required
            idPrefix="invite-"
            error={errors.role}
          />
          <SubmitButton busy={busy} label="Crear invitación" busyLabel="Creando..." />
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
      </section>

      <section aria-labelledby="settings-title" className={`grid gap-2 ${card}`}>
        <h2 id="settings-title" className="text-xl font-bold">
          Ajustes del equipo
        </h2>
        <SettingToggle
          checked={team.roundRobin}
          label="Asignar cada prospecto nuevo, por turnos, a los asesores activos"
          change={{ roundRobin: !team.roundRobin }}
          done={team.roundRobin ? 'Asignación por turnos desactivada' : 'Asignación por turnos activada'}
          onSaved={setTeam}
        />
        <SettingToggle
          checked={team.adminPasskeyRequired}
          label="Exigir llave de acceso a los administradores (con contraseña solo llegan a «Mi cuenta»)"
          change={{ adminPasskeyRequired: !team.adminPasskeyRequired }}
          done={
            team.adminPasskeyRequired
              ? 'Ya no se exige llave de acceso'
              : 'Los administradores deberán entrar con su llave de acceso'
          }
          onSaved={setTeam}
        />
      </section>

      <section aria-labelledby="members-title" className="grid gap-3">
        <h2 id="members-title" className="text-xl font-bold">
          Miembros
        </h2>
        <ul className="grid gap-2">
          {team.members.map((member) => (
            <li key={member.id} className={`flex flex-wrap items-center justify-between gap-3 ${card}`}>
              <div className="min-w-0 wrap-anywhere">
                <p className="font-bold">
                  {member.name ?? member.email}
                  {member.id === self ? ' (tú)' : ''}
                </p>
                <p className="text-sm text-brand-800">
                  {member.email} · {ROLE_LABELS[member.role]} · {member.active ? 'Activo' : 'Desactivado'} · Último
                  acceso: {member.lastSignInAt ? formatShortDate(member.lastSignInAt) : 'nunca'}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className="btn btn-outline min-h-11 px-4 py-2"
                  onClick={() =>
                    change(member.id, { role: member.role === 'admin' ? 'asesor' : 'admin' }, 'Rol actualizado')
                  }
                  aria-label={`${member.role === 'admin' ? 'Hacer asesor' : 'Hacer administrador'}: ${member.name ?? member.email}`}
                >
                  {member.role === 'admin' ? 'Hacer asesor' : 'Hacer administrador'}
                </button>
                <button
                  type="button"
                  className="btn btn-outline min-h-11 px-4 py-2"
                  onClick={() => {
                    if (
                      member.active &&
                      !window.confirm(
                        `¿Desactivar a ${member.name ?? member.email}? Sus sesiones terminarán de inmediato.`,
                      )
                    ) {
                      return;
                    }
                    void change(
                      member.id,
                      { active: !member.active },
                      member.active ? 'Cuenta desactivada' : 'Cuenta reactivada',
                    );
                  }}
                  aria-label={`${member.active ? 'Desactivar' : 'Reactivar'} a ${member.name ?? member.email}`}
                >
                  {member.active ? 'Desactivar' : 'Reactivar'}
                </button>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="invitations-title" className="grid gap-3">
        <h2 id="invitations-title" className="text-xl font-bold">
          Invitaciones pendientes
        </h2>
        {team.invitations.length === 0 ? (
          <p className={`${card} text-center text-brand-800`}>No hay invitaciones pendientes.</p>
        ) : (
          <ul className="grid gap-2">
            {team.invitations.map((invitation) => (
              <li key={invitation.id} className={`flex flex-wrap items-center justify-between gap-3 ${card}`}>
                <p className="min-w-0 wrap-anywhere">
                  {invitation.email} · {ROLE_LABELS[invitation.role]} · vence el {formatShortDate(invitation.expiresAt)}
                </p>
                <button
                  type="button"
                  className="btn btn-outline min-h-11 px-4 py-2"
                  onClick={() => revoke(invitation.id)}
                  aria-label={`Revocar la invitación de ${invitation.email}`}
                >
                  Revocar
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** /admin#actividad (administrators): who did what, when, with filters by member and by kind. */
export function ActivityView() {
  const [members, setMembers] = useState<{ value: string; label: string }[]>([]);
  const [filter, setFilter] = useState({ actor: '', kind: '' });
  const [page, setPage] = useState<ActivityPage | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    async (cursor?: string) => {
      const params = new URLSearchParams({ ...filter, ...(cursor ? { cursor } : {}) });
      const result = await apiCall<ActivityPage>(`/api/admin/activity?${params}`).catch(() => null);
      if (result?.status === 401) return goTo('/auth');
      if (!result?.ok) return setFailed(true);
      setFailed(false);
      setPage((current) =>
        cursor && current ? { ...result.body, items: [...current.items, ...result.body.items] } : result.body,
      );
    },
    [filter],
  );
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    apiCall<Team>('/api/admin/team')
      .then((result) =>
        setMembers(
          result.ok
            ? result.body.members.map((member) => ({ value: member.id, label: member.name ?? member.email }))
            : [],
        ),
      )
      .catch(() => setMembers([]));
  }, []);

  return (
    <div className="grid min-w-0 gap-4">
      <div className={`grid gap-3 sm:grid-cols-2 ${card}`}>
        <label className="field">
          <span className="field-label">Miembro</span>
          <select
            className="field-input"
            value={filter.actor}
            onChange={(event) => setFilter((current) => ({ ...current, actor: event.target.value }))}
          >
            <option value="">Todos</option>
            {members.map((member) => (
              <option key={member.value} value={member.value}>
                {member.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Tipo</span>
          <select
            className="field-input"
            value={filter.kind}
            onChange={(event) => setFilter((current) => ({ ...current, kind: event.target.value }))}
          >
            <option value="">Todos</option>
            {ACTIVITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ACTIVITY_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {failed ? (
        <LoadFailed retry={() => load()} />
      ) : !page ? (
        <p role="status" className="text-brand-800">
          Cargando actividad...
        </p>
      ) : page.items.length === 0 ? (
        <p className={`${card} text-center text-brand-800`}>No hay actividad con estos filtros.</p>
      ) : (
        <ol className="grid gap-2" aria-label="Actividad del equipo">
          {page.items.map((entry) => (
            <li key={entry.id} className={`grid gap-1 ${card}`}>
              <p className="text-xs text-brand-700">
                <time dateTime={entry.at}>{formatShortDate(entry.at)}</time> · {ACTIVITY_LABELS[entry.kind]}
                {entry.ip ? ` · IP ${entry.ip}` : ''}
              </p>
              <p className="wrap-anywhere">
                <span className="font-semibold">{entry.actorName ?? 'Alguien sin sesión'}</span>: {entry.summary}
              </p>
            </li>
          ))}
        </ol>
      )}
      {page?.nextCursor && (
        <button
          type="button"
          className="btn btn-outline justify-self-center"
          onClick={() => load(page.nextCursor ?? undefined)}
        >
          Cargar más
        </button>
      )}
    </div>
  );
}

/** The member's passkeys: add one (named), remove one. */
function PasskeysSection() {
  const [items, setItems] = useState<PasskeyView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const result = await apiCall<{ items: PasskeyView[] }>('/api/auth/passkeys').catch(() => null);
    setItems(result?.ok ? result.body.items : []);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

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
    await load();
  }

  async function remove(id: string, label: string) {
    if (!window.confirm(`¿Eliminar la llave de acceso «${label}»?`)) return;
    const result = await apiCall(`/api/auth/passkeys/${id}`, { method: 'DELETE' }).catch(() => null);
    if (!result?.ok) return showToast({ title: 'No se pudo eliminar la llave', variant: 'destructive' });
    showToast({ title: 'Llave de acceso eliminada' });
    await load();
  }

  return (
    <section aria-labelledby="passkeys-title" className={`grid max-w-lg gap-3 ${card}`}>
      <h2 id="passkeys-title" className="text-xl font-bold">
        Llaves de acceso
      </h2>
      <p className="text-sm text-brand-800">
        Entra con la huella, el rostro o el PIN de tu dispositivo en lugar de la contraseña.
      </p>
      {items === null ? (
        <p role="status" className="text-brand-800">
          Cargando llaves...
        </p>
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
    </section>
  );
}

/** /admin#cuenta (every member): change one's password (the other sessions end), and one's passkeys. */
export function AccountView() {
  return (
    <div className="grid gap-6">
      <PasswordSection />
      <PasskeysSection />
    </div>
  );
}

function PasswordSection() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = passwordChangeSchema.safeParse(Object.fromEntries(new FormData(form)));
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setErrors({});
    setBusy(true);
    const result = await apiCall<{ error?: string; fields?: Record<string, string> }>('/api/auth/password', {
      method: 'POST',
      body: JSON.stringify(parsed.data),
    }).catch(() => null);
    setBusy(false);
    if (result?.status === 401) return goTo('/auth');
    if (!result?.ok) {
      if (result?.body.fields) setErrors(result.body.fields);
      return showToast({
        title: 'No se pudo cambiar la contraseña',
        description: result?.body.error ?? 'Revisa tu conexión e intenta de nuevo.',
        variant: 'destructive',
      });
    }
    form.reset();
    showToast({ title: 'Contraseña actualizada', description: 'Cerramos tus sesiones en otros dispositivos.' });
  }

  return (
    <section aria-labelledby="password-title" className={`grid max-w-lg gap-3 ${card}`}>
      <h2 id="password-title" className="text-xl font-bold">
        Cambiar contraseña
      </h2>
      <form noValidate onSubmit={submit} className="grid gap-3">
        <TextField
          name="current"
          label="Contraseña actual"
          type="password"
          autoComplete="current-password"
          required
          error={errors.current}
        />
        <TextField
          name="password"
          label="Contraseña nueva"
          type="password"
          autoComplete="new-password"
          required
          hint="Al menos 8 caracteres."
          error={errors.password}
        />
        <SubmitButton busy={busy} label="Cambiar contraseña" busyLabel="Guardando..." />
      </form>
    </section>
  );
}

/** One of the team's settings: a checkbox saved at once, with the server's reason when it refuses. */
function SettingToggle({
  checked,
  label,
  change,
  done,
  onSaved,
}: {
  checked: boolean;
  label: string;
  change: TeamSettingsChange;
  done: string;
  onSaved: (team: Team) => void;
}) {
  const [saving, setSaving] = useState(false);
  return (
    <label className="flex min-h-11 items-center gap-3">
      <input
        type="checkbox"
        className="size-5 shrink-0 accent-brand-700"
        checked={checked}
        disabled={saving}
        onChange={async () => {
          setSaving(true);
          const result = await apiCall<Team & { error?: string }>('/api/admin/team/settings', {
            method: 'PATCH',
            body: JSON.stringify(change),
          }).catch(() => null);
          setSaving(false);
          if (!result?.ok) {
            return showToast({
              title: 'No se pudo guardar el ajuste',
              description: result?.body.error,
              variant: 'destructive',
            });
          }
          onSaved(result.body);
          showToast({ title: done });
        }}
      />
      <span>{label}</span>
    </label>
  );
}
