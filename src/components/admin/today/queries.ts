import { useQuery } from '@tanstack/react-query';
import type { TodayAgenda, TodayScope, TodaySection, TodaySectionPage } from '../../../lib/admin/today.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';
import { useMorePages } from '../shared/more-pages.ts';

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
export const useMoreOfSection = (scope: TodayScope, section: TodaySection, from: string | null) =>
  useMorePages(
    keys.todaySection(scope, section, from ?? ''),
    (cursor) => api<TodaySectionPage>(`/api/admin/today?scope=${scope}&section=${section}&cursor=${cursor}`),
    from,
  );
