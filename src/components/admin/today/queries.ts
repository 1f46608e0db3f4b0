import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { TodayAgenda, TodayScope, TodaySection, TodaySectionPage } from '../../../lib/admin/today.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** "Hoy": each section's first page and total (`/api/admin/today`, src/server/contacts/today.ts). */
export const useToday = (scope: TodayScope) =>
  useQuery({
    queryKey: keys.todayOf(scope),
    queryFn: () => api<TodayAgenda>(`/api/admin/today?scope=${scope}`),
    meta: { errorTitle: 'Error al cargar el día' },
  });

/**
 * The pages of a section after its first, fetched once "Cargar más" is
 * pressed (`from` is the first page's cursor).
 */
export function useMoreOfSection(scope: TodayScope, section: TodaySection, from: string | null, wanted: boolean) {
  const query = useInfiniteQuery({
    queryKey: keys.todaySection(scope, section, from ?? ''),
    queryFn: ({ pageParam }) =>
      api<TodaySectionPage>(`/api/admin/today?scope=${scope}&section=${section}&cursor=${pageParam}`),
    initialPageParam: from ?? '',
    getNextPageParam: (last) => last.nextCursor,
    enabled: wanted && from !== null,
    meta: { errorTitle: 'Error al cargar más prospectos' },
  });
  const pages = query.data?.pages ?? [];
  return {
    items: pages.flatMap((page) => page.items),
    nextCursor: pages.length ? (pages.at(-1)?.nextCursor ?? null) : from,
    loading: query.isFetching,
    more: () => void query.fetchNextPage(),
  };
}
