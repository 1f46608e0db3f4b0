import { useQuery } from '@tanstack/react-query';
import type { UnreadCount } from '../../../lib/whatsapp/contract.ts';
import { api } from '../api.ts';
import { keys } from '../keys.ts';

/**
 * The navigation's unread count (decision 0042: polling), in a module of its
 * own: it comes with the panel's first touch, the conversations' queries
 * (queries.ts) with the views that show a conversation.
 */
export const UNREAD_EVERY_MS = 15_000;

/** The navigation's badge: unread messages over the team's conversations. */
export const useUnread = (enabled: boolean) =>
  useQuery({
    queryKey: keys.unread,
    queryFn: () => api<UnreadCount>('/api/admin/whatsapp/unread'),
    enabled,
    refetchInterval: UNREAD_EVERY_MS,
  });
