import { LoadFailed, Loading } from '../shared/ui.tsx';
import { Invitations } from './Invitations.tsx';
import { InviteForm } from './InviteForm.tsx';
import { MemberList } from './MemberList.tsx';
import { useTeam } from './queries.ts';
import { Settings } from './Settings.tsx';

/**
 * /admin#equipo (administrators): invite by e-mail and role (the one-time
 * link is shown to copy, and e-mailed when SMTP is configured), the members
 * with their role, last sign-in and state, open invitations.
 */
export function TeamView({ self }: { self: string }) {
  const team = useTeam();
  if (team.isError) return <LoadFailed error={team.error} retry={() => void team.refetch()} />;
  if (!team.data) return <Loading text="Cargando equipo..." />;
  return (
    <div className="grid min-w-0 gap-6">
      <InviteForm />
      <Settings team={team.data} />
      <MemberList members={team.data.members} self={self} />
      <Invitations invitations={team.data.invitations} />
    </div>
  );
}
