import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type Member, ROLE_LABELS, type Role } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { card, Section } from '../shared/ui.tsx';
import { useChangeMember } from './queries.ts';

/** The members with their role, state and last sign-in; change a role, deactivate or reactivate. */
export function MemberList({ members, self }: { members: Member[]; self: string }) {
  const mutation = useChangeMember();
  const change = (id: string, body: { role?: Role; active?: boolean }, done: string) =>
    mutation.mutate({ id, change: body }, { onSuccess: () => showToast({ title: done }) });

  return (
    <Section title="Miembros">
      <ul className="grid gap-2">
        {members.map((member) => (
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
    </Section>
  );
}
