import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { BulkAnswer, BulkChange } from '../../../lib/admin/contact-bulk.ts';
import type { CaptureAnswer } from '../../../lib/admin/contact-work.ts';
import type { ContactFilter, ContactState, ContactSummary, Metrics } from '../../../lib/admin/contacts.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/** `/api/admin/contacts`'s answer (src/server/contacts/list.ts). */
export interface ContactsPage {
  items: ContactSummary[];
  nextCursor: string | null;
  total: number;
  /** Null past the server's counting cap (a broad search): the chips then show no numbers. */
  counts: Record<ContactState, number> | null;
  capped: boolean;
}

/** The filters as a query string ("" without any), `cursor` for a next page. */
export function contactsQuery(filter: ContactFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, String(value));
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The contacts matching `filter`, page after page. Each filter has its own
 * cache entry, so a slow answer for "ma" never lands in the list for
 * "maria"; the previous list stays on screen while the new one loads.
 */
export function useContacts(filter: ContactFilter) {
  // Back to a list whose "Cargar más" was pressed: its first page is as long as what it showed (issue #26).
  const [arrival] = useState(() => ({ search: window.location.search, shown: shownAt(window.location.search) }));
  const query = useInfiniteQuery({
    queryKey: keys.contactList(filter),
    queryFn: ({ pageParam }) => {
      const restored = !pageParam && window.location.search === arrival.search && arrival.shown > PAGE_SIZE;
      const limit = restored ? `${contactsQuery(filter) ? '&' : '?'}limit=${Math.min(arrival.shown, MAX_PAGE)}` : '';
      return api<ContactsPage>(`/api/admin/contacts${contactsQuery(filter, pageParam ?? undefined)}${limit}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    meta: { errorTitle: 'Error al cargar los prospectos' },
  });
  const pages = query.data?.pages;
  const last = pages?.at(-1);
  const page = last && pages ? { ...last, items: pages.flatMap((each) => each.items) } : null;
  const shown = page?.items.length ?? 0;
  useEffect(() => {
    if (shown) rememberShown(window.location.search, shown);
  }, [shown]);
  return { page, loading: query.isFetching, more: () => void query.fetchNextPage() };
}

/** The server's page (admin-contacts.ts): 50 cards, at most 200 in one page. */
const PAGE_SIZE = 50;
const MAX_PAGE = 200;
const SHOWN = 'admin:shown:';

/** How many cards the list at this address showed last (0 when unknown). */
function shownAt(search: string): number {
  try {
    return Number(sessionStorage.getItem(`${SHOWN}${search}`) ?? 0) || 0;
  } catch {
    return 0;
  }
}

function rememberShown(search: string, count: number): void {
  try {
    sessionStorage.setItem(`${SHOWN}${search}`, String(count));
  } catch {
    // No storage: a return shows the first page.
  }
}

/** The figures on top of "Prospectos"; without them the cards show "…". */
export const useMetrics = () =>
  useQuery({ queryKey: keys.metrics, queryFn: () => api<Metrics>('/api/admin/metrics') }).data ?? null;

/** A lead typed in ("Nuevo prospecto"): the contact's id, and whether it is new. */
export const useCapture = () =>
  useMutation({
    mutationFn: (capture: CaptureInput) => api<CaptureAnswer>('/api/admin/contacts', { method: 'POST', json: capture }),
    meta: { invalidates: [keys.contacts, keys.today, keys.reminders, keys.pipeline, keys.metrics] },
  });

/** What the form sends: the schema's input (the phone as typed). */
export interface CaptureInput {
  name: string;
  phone: string;
  email: string;
  origin: string;
  note: string;
}

/** The contacts selected in the list assigned and/or moved (administrators). */
export const useBulkChange = () =>
  useMutation({
    mutationFn: (change: BulkChange) => api<BulkAnswer>('/api/admin/contacts-bulk', { method: 'POST', json: change }),
    meta: { invalidates: [keys.contacts, keys.today, keys.reminders, keys.pipeline, keys.metrics] },
  });
