import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactEdit, Merge, OtherContact } from '../../../lib/admin/contact-work.ts';
import type { ContactDetail } from '../../../lib/admin/contacts.ts';
import type { TeamView } from '../../../lib/admin/team.ts';
import { ApiError, api } from '../api.ts';
import { keys } from '../keys.ts';
import { useErasing } from './queries.ts';

/*
 * The contact page's own queries (its detail, notes, edit and merge, the members to assign): apart from
 * queries.ts, whose actions Hoy's cards use too, so they load with the page that shows them and not with
 * the panel's first touch (bench:bundle).
 */

/** One contact (src/server/contacts/detail.ts); a 404 is an answer ("No encontramos…"), not a failure. */
export function useContact(id: string, enabled: boolean) {
  const erasing = useErasing(id);
  return useQuery({
    queryKey: keys.contact(id),
    queryFn: () => api<ContactDetail>(`/api/admin/contacts/${id}`),
    enabled: enabled && !erasing,
    meta: { errorTitle: 'Error al cargar el prospecto' },
  });
}

/** The active members an administrator can assign the contact to; null for an adviser (or while loading). */
export function useAssignable(admin: boolean): { id: string; name: string }[] | null {
  const team = useQuery({
    queryKey: keys.team,
    queryFn: () => api<TeamView>('/api/admin/team'),
    enabled: admin,
  });
  if (team.isError) return [];
  return (
    team.data?.members
      .filter((entry) => entry.active)
      .map((entry) => ({ id: entry.id, name: entry.name ?? entry.email })) ?? null
  );
}

/** Adds a note; the mutation ends once the page shows it. */
export const useAddNote = (id: string) =>
  useMutation({
    mutationFn: (body: string) => api(`/api/admin/contacts/${id}/notes`, { method: 'POST', json: { body } }),
    meta: { invalidates: [keys.contact(id)] },
  });

/** Deletes a note (the history keeps a line saying so). */
export const useRemoveNote = (id: string) =>
  useMutation({
    mutationFn: (noteId: string) => api(`/api/admin/contacts/${id}/notes/${noteId}`, { method: 'DELETE' }),
    meta: { errorTitle: 'No se pudo eliminar la nota', invalidates: [keys.contact(id)] },
  });

/** The name, phone and e-mail corrected; a 409 `phone_taken` carries the other contact (`otherContactOf`). */
export function useEditContact(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: ContactEdit) =>
      api<ContactDetail>(`/api/admin/contacts/${id}/details`, { method: 'PATCH', json: edit }),
    onSuccess: (saved) => client.setQueryData(keys.contact(id), saved),
    meta: { invalidates: [keys.contacts, keys.today, keys.reminders, keys.pipeline] },
  });
}

/** `from` merged into this contact, which takes the edit. */
export function useMerge(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (merge: Merge) =>
      api<ContactDetail>(`/api/admin/contacts/${id}/merge`, { method: 'POST', json: merge }),
    onSuccess: (saved) => client.setQueryData(keys.contact(id), saved),
    meta: { invalidates: [keys.contacts, keys.today, keys.reminders, keys.pipeline, keys.metrics] },
  });
}

/** The other contact of a 409 on a phone, if that is what the refusal was. */
export const otherContactOf = (error: unknown): OtherContact | null =>
  error instanceof ApiError && error.status === 409 && error.body.code === 'phone_taken'
    ? ((error.body as { other?: OtherContact }).other ?? null)
    : null;
