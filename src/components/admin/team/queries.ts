import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role, TeamView as Team, TeamSettingsChange } from '../../../lib/admin/team.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** The team: members, open invitations, settings (administrators only). */
export const useTeam = () => useQuery({ queryKey: keys.team, queryFn: () => api<Team>('/api/admin/team') });

export interface Invited {
  link: string;
  emailed?: boolean;
}

export const useInvite = () =>
  useMutation({
    mutationFn: (invitation: { email: string; role: Role }) =>
      api<Invited>('/api/admin/team/invitations', { method: 'POST', json: invitation }),
    meta: { errorTitle: 'No se pudo crear la invitación', invalidates: [keys.team] },
  });

export const useChangeMember = () =>
  useMutation({
    mutationFn: ({ id, change }: { id: string; change: { role?: Role; active?: boolean } }) =>
      api(`/api/admin/team/members/${id}`, { method: 'PATCH', json: change }),
    meta: { errorTitle: 'No se pudo guardar el cambio', invalidates: [keys.team] },
  });

export const useRevokeInvitation = () =>
  useMutation({
    mutationFn: (id: string) => api(`/api/admin/team/invitations/${id}`, { method: 'DELETE' }),
    meta: { errorTitle: 'No se pudo revocar la invitación', invalidates: [keys.team] },
  });

/** A setting is shown changed once the server saved it: its answer is the team as it now is. */
export function useTeamSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: TeamSettingsChange) =>
      api<Team>('/api/admin/team/settings', { method: 'PATCH', json: change }),
    onSuccess: (team) => client.setQueryData(keys.team, team),
    meta: { errorTitle: 'No se pudo guardar el ajuste' },
  });
}
