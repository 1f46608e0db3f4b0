import { formatShortDate } from '../../../lib/admin/columns.ts';
import { type OpenInvitation, ROLE_LABELS } from '../../../lib/admin/team.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { card, Section } from '../shared/ui.tsx';
import { useRevokeInvitation } from './queries.ts';

/** The invitations still open, each with "Revocar". */
export function Invitations({ invitations }: { invitations: OpenInvitation[] }) {
  const revoke = useRevokeInvitation();

  return (
    <Section title="Invitaciones pendientes">
      {invitations.length === 0 ? (
        <p className={`${card} text-center text-brand-800`}>No hay invitaciones pendientes.</p>
      ) : (
        <ul className="grid gap-2">
          {invitations.map((invitation) => (
            <li key={invitation.id} className={`flex flex-wrap items-center justify-between gap-3 ${card}`}>
              <p className="min-w-0 wrap-anywhere">
                {invitation.email} · {ROLE_LABELS[invitation.role]} · vence el {formatShortDate(invitation.expiresAt)}
              </p>
              <button
                type="button"
                className="btn btn-outline min-h-11 px-4 py-2"
                onClick={() =>
                  revoke.mutate(invitation.id, { onSuccess: () => showToast({ title: 'Invitación revocada' }) })
                }
                aria-label={`Revocar la invitación de ${invitation.email}`}
              >
                Revocar
              </button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
