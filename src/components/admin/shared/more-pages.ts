import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * The pages of a list after its first (which came with its view: a column of
 * the pipeline, a section of "Hoy"), fetched from `from` (the first page's
 * cursor) once "Cargar más" is first pressed, then one page a press.
 * `footer`: ListFooter's button (`<ListFooter {...more.footer} />`).
 */
export function useMorePages<T>(
  queryKey: readonly unknown[],
  fetchPage: (cursor: string) => Promise<{ items: T[]; nextCursor: string | null }>,
  from: string | null,
) {
  const [wanted, setWanted] = useState(false);
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: from ?? '',
    getNextPageParam: (last) => last.nextCursor,
    enabled: wanted && from !== null,
    meta: { errorTitle: 'Error al cargar más prospectos' },
  });
  const pages = query.data?.pages ?? [];
  const nextCursor = pages.length ? (pages.at(-1)?.nextCursor ?? null) : from;
  return {
    items: pages.flatMap((page) => page.items),
    footer: {
      more: Boolean(nextCursor),
      loading: query.isFetching,
      onMore: () => (wanted ? void query.fetchNextPage() : setWanted(true)),
    },
  };
}
