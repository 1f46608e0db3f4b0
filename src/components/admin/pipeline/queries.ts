import { type InfiniteData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactDetail, ContactState, LostReason } from '../../../lib/admin/contacts.ts';
import type { PipelineBoard, PipelineCard, PipelineColumnPage } from '../../../lib/admin/pipeline.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';
import { useMorePages } from '../shared/more-pages.ts';

/** `assigned` as the address and the endpoint say it: '' (everyone's), 'me', 'none'. */
export type PipelineAssigned = '' | 'me' | 'none';

/**
 * Whose board and which people: the endpoint's filters as a query string
 * (`assigned`, and the first touch's `source` and `campaign`, issue #43), ''
 * for everyone's; also the board's key in the cache.
 */
export type PipelineScope = string;

export function pipelineScope(filters: {
  assigned: PipelineAssigned;
  source?: string;
  campaign?: string;
}): PipelineScope {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return params.toString();
}

const query = (scope: PipelineScope, extra = '') => {
  const params = new URLSearchParams(scope);
  for (const [name, value] of new URLSearchParams(extra)) params.set(name, value);
  const text = params.toString();
  return `/api/admin/pipeline${text ? `?${text}` : ''}`;
};

/** The board: each column's first cards, count and sum (src/server/contacts/pipeline.ts). */
export const usePipeline = (assigned: PipelineScope) =>
  useQuery({
    queryKey: keys.pipelineOf(assigned),
    queryFn: () => api<PipelineBoard>(query(assigned)),
    meta: { errorTitle: 'Error al cargar el embudo' },
  });

/** A column's cards after its first page, fetched once "Cargar más" is pressed (`from`: the first page's cursor). */
export const useMoreOfColumn = (assigned: PipelineScope, state: ContactState, from: string | null) =>
  useMorePages(
    keys.pipelineColumn(assigned, state, from ?? ''),
    (cursor) => api<PipelineColumnPage>(query(assigned, new URLSearchParams({ state, cursor }).toString())),
    from,
  );

export interface Move {
  card: PipelineCard;
  to: ContactState;
  lostReason: LostReason | null;
}

type Snapshot = [readonly unknown[], unknown][];

/** The card moved in every cached page of the pipeline: out of wherever it is, onto the top of `to`'s column. */
function moveInCache(client: QueryClient, { card, to, lostReason }: Move): void {
  const moved: PipelineCard = { ...card, state: to, lostReason };
  const counted = card.value === null ? 0 : 1;
  const value = card.value ?? 0;
  client.setQueriesData<PipelineBoard>(
    { queryKey: keys.pipeline, predicate: (entry) => entry.queryKey.length === 2 },
    (board) =>
      board && {
        columns: board.columns.map((column) => {
          if (column.state === card.state) {
            return {
              ...column,
              items: column.items.filter((item) => item.id !== card.id),
              total: Math.max(0, column.total - 1),
              value: column.value - value,
              valued: column.valued - counted,
            };
          }
          if (column.state === to) {
            return {
              ...column,
              items: [moved, ...column.items],
              total: column.total + 1,
              value: column.value + value,
              valued: column.valued + counted,
            };
          }
          return column;
        }),
      },
  );
  client.setQueriesData<InfiniteData<PipelineColumnPage>>(
    { queryKey: keys.pipeline, predicate: (entry) => entry.queryKey.length === 4 },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== card.id) })),
      },
  );
}

/**
 * A card moved to another state through the contact's own PATCH (its version
 * check, history and activity entry): shown at once, taken back if the server
 * refuses (the toast and the view's live region say why); a 409 fetches the
 * board again, as the list does with someone else's change.
 */
export function useMoveCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ card, to, lostReason }: Move) =>
      api<ContactDetail>(`/api/admin/contacts/${card.id}`, {
        method: 'PATCH',
        json: { state: to, lostReason: to === 'cerrado_perdido' ? lostReason : null, version: card.version },
      }),
    onMutate: async (move) => {
      await client.cancelQueries({ queryKey: keys.pipeline });
      const before: Snapshot = client.getQueriesData({ queryKey: keys.pipeline });
      moveInCache(client, move);
      return { before };
    },
    onError: (error, _move, context) => {
      for (const [key, data] of context?.before ?? []) client.setQueryData(key, data);
      if (error.status === 409) void client.invalidateQueries({ queryKey: keys.pipeline });
    },
    onSuccess: (saved) => client.setQueryData(keys.contact(saved.id), saved),
    meta: {
      errorTitle: 'No se pudo mover el prospecto',
      invalidates: [keys.pipeline, keys.contacts, keys.today, keys.metrics, keys.reminders],
    },
  });
}
