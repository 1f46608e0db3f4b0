import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { LEAD_KINDS, type LeadKind, type LeadRow } from '../../../lib/admin/columns.ts';
import type { DeliveryView } from '../../../lib/admin/notifications.ts';
import { showToast } from '../../../lib/client/toast.ts';
import { leadKindDefinition } from '../../../lib/leads/kinds.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** `/api/admin/{kind}`'s answer (src/server/leads/list.ts); the list grows page by page. */
export interface LeadPage {
  items: LeadRow[];
  deliveries: Record<string, DeliveryView[]>;
  nextCursor: string | null;
  total: number;
}

/** The registry's Spanish texts for a kind's tab. */
export const kindTexts = (kind: LeadKind) => leadKindDefinition(kind).texts;

const pagePath = (kind: LeadKind, cursor?: string | null) =>
  `/api/admin/${kind}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

/**
 * Every kind's first page, for administrators (`enabled`): the tabs and the
 * header count them. The same cache serves "Solicitudes" when it opens.
 */
export function useLeadPages(enabled: boolean): Partial<Record<LeadKind, LeadPage>> {
  const results = useQueries({
    queries: LEAD_KINDS.map((kind) => ({
      queryKey: keys.leads(kind),
      queryFn: () => api<LeadPage>(pagePath(kind)),
      enabled,
      meta: { errorTitle: kindTexts(kind).loadError },
    })),
  });
  return Object.fromEntries(LEAD_KINDS.map((kind, index) => [kind, results[index]?.data]));
}

/** "Cargar más" and "Eliminar" of one kind: both change the cached list in place. */
export function useLeadActions(kind: LeadKind) {
  const client = useQueryClient();
  const update = (change: (page: LeadPage) => LeadPage) =>
    client.setQueryData<LeadPage>(keys.leads(kind), (page) => page && change(page));

  const more = useMutation({
    mutationFn: (cursor: string) => api<LeadPage>(pagePath(kind, cursor)),
    onSuccess: (next) =>
      update((page) => ({
        ...next,
        items: [...page.items, ...next.items],
        deliveries: { ...page.deliveries, ...next.deliveries },
      })),
    meta: { errorTitle: kindTexts(kind).loadError },
  });

  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/admin/${kind}/${id}`, { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      update((page) => ({ ...page, items: page.items.filter((row) => row.id !== id), total: page.total - 1 }));
      showToast({ title: kindTexts(kind).deleted });
    },
    meta: { errorTitle: kindTexts(kind).deleteError },
  });
  return { more, remove };
}
