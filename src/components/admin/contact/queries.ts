import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import type { ContactDetail, ContactState, LostReason } from '../../../lib/admin/contacts.ts';
import type { AttemptChannel, OutcomeInput, OutcomeSaved } from '../../../lib/admin/outcomes.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/**
 * True from the moment the contact's person is being erased (PersonalData) until the page is left: its
 * queries stop asking, or one asked between the erasure and leaving would find nothing (a 404).
 */
export function useErasing(id: string): boolean {
  return (
    useMutationState({
      filters: { mutationKey: keys.erasePerson(id), predicate: (mutation) => mutation.state.status !== 'error' },
    }).length > 0
  );
}

export interface FollowUp {
  state: ContactState;
  lostReason: LostReason | null;
  nextContactAt: string | null;
  assignedTo?: string | null;
  /** The deal (the pipeline): model of interest, value overridden, expected close day. */
  modelId?: string | null;
  estimatedValue?: number | null;
  expectedCloseOn?: string | null;
  version: number;
}

/**
 * Saves the follow-up. The page shows the new state at once (optimistic) and
 * takes it back if the server refuses; the list and the figures are fetched
 * again once it is saved.
 */
export function useSaveFollowUp(id: string) {
  const client = useQueryClient();
  const key = keys.contact(id);
  return useMutation({
    mutationFn: (change: FollowUp) =>
      api<ContactDetail>(`/api/admin/contacts/${id}`, { method: 'PATCH', json: change }),
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<ContactDetail>(key);
      if (before) {
        client.setQueryData<ContactDetail>(key, {
          ...before,
          state: change.state,
          lostReason: change.lostReason,
          nextContactAt: change.nextContactAt,
          ...(change.modelId === undefined ? {} : { modelId: change.modelId }),
          ...(change.estimatedValue === undefined ? {} : { estimatedValue: change.estimatedValue }),
          ...(change.expectedCloseOn === undefined ? {} : { expectedCloseOn: change.expectedCloseOn }),
        });
      }
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSuccess: (saved) => client.setQueryData(key, saved),
    meta: { invalidates: [keys.contacts, keys.today, keys.metrics, keys.reminders, keys.pipeline] },
  });
}

/**
 * "Tomar": the contact becomes the member's; the page, the list and the
 * figures follow. Its toasts are the hook's, not the button's: the card may
 * leave a filtered list before the answer's callbacks would run.
 */
export function useClaim(id: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<ContactDetail>(`/api/admin/contacts/${id}/claim`, { method: 'POST' }),
    onSuccess: (saved) => {
      client.setQueryData(keys.contact(id), saved);
      showToast({ title: 'Prospecto tomado', description: `${name} ahora es tuyo.` });
    },
    // Someone else took it (the toast says so): what the page and the list show is fetched again.
    onError: () =>
      Promise.all([keys.contact(id), keys.contacts].map((queryKey) => client.invalidateQueries({ queryKey }))),
    meta: {
      errorTitle: 'No se pudo tomar el prospecto',
      invalidates: [keys.contacts, keys.today, keys.reminders, keys.pipeline, keys.metrics],
    },
  });
}

/**
 * Records the person's opposition to promotions and the ad platforms (POST
 * …/opposition, administrators): the page shows the contact the server
 * answers, with the line of its history.
 */
export function useOpposition(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<ContactDetail>(`/api/admin/contacts/${id}/opposition`, { method: 'POST', json: {} }),
    onSuccess: (saved) => {
      client.setQueryData(keys.contact(id), saved);
      showToast({
        title: 'Oposición registrada',
        description: 'Ya no compartiremos con plataformas de anuncios lo que haga esta persona.',
      });
    },
    meta: { errorTitle: 'No se pudo registrar la oposición' },
  });
}

/**
 * Records an outcome (POST …/outcomes): the contact's page shows the
 * follow-up it answers at once, and its history is fetched again (only
 * where the page is open: a card needs none of it); the list, the figures
 * and the badge are fetched again too.
 */
export function useRecordOutcome(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OutcomeInput) =>
      api<OutcomeSaved>(`/api/admin/contacts/${id}/outcomes`, { method: 'POST', json: input }),
    onSuccess: (saved) =>
      client.setQueryData<ContactDetail>(keys.contact(id), (before) => before && { ...before, ...saved }),
    meta: {
      invalidates: [keys.contact(id), keys.contacts, keys.today, keys.pipeline, keys.metrics, keys.reminders],
    },
  });
}

/**
 * Llamar or WhatsApp pressed: the attempt is sent as the link opens (fetch
 * with keepalive, so leaving for the dialer or WhatsApp does not cancel it),
 * and the contact's timeline is fetched again once it is stored.
 */
export function useRecordAttempt(id: string) {
  return useMutation({
    mutationFn: (channel: AttemptChannel) =>
      api(`/api/admin/contacts/${id}/attempts`, { method: 'POST', json: { channel }, keepalive: true }),
    meta: { invalidates: [keys.contact(id), keys.contacts, keys.today, keys.reminders, keys.pipeline] },
  });
}
