import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { DeliveryView } from '../../../lib/admin/notifications.ts';
import type { CallDetail, CallsPage } from '../../../lib/voice/calls.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** Every call, newest first, page after page. */
export function useCalls() {
  const query = useInfiniteQuery({
    queryKey: keys.calls,
    queryFn: ({ pageParam }) =>
      api<CallsPage>(`/api/admin/calls${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    meta: { errorTitle: 'Error al cargar las llamadas' },
  });
  return {
    calls: query.data?.pages.flatMap((page) => page.items) ?? null,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    more: () => void query.fetchNextPage(),
  };
}

export type CallWithDeliveries = CallDetail & { deliveries: DeliveryView[] };

/** One call with its notifications; a 404 is "No encontramos esta llamada". */
export const useCall = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.call(id),
    queryFn: () => api<CallWithDeliveries>(`/api/admin/calls/${id}`),
    enabled,
    meta: { errorTitle: 'Error al cargar la llamada' },
  });
