import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ConversationFilter,
  ConversationPage,
  MessagePage,
  QuickReply,
  QuickReplyInput,
  QuickReplyList,
  SendMessageAnswer,
  SendMessageInput,
  WhatsappMessage,
  WhatsappState,
} from '../../../lib/whatsapp/contract.ts';
import { api } from '../api.ts';
import { useErasing } from '../contact/queries.ts';
import { keys } from '../keys.ts';
import { UNREAD_EVERY_MS } from './unread.ts';

/**
 * WhatsApp in the panel (issue #27, decision 0039; polling: decision 0042).
 * Intervals run only while the tab is visible (TanStack Query's default
 * `refetchIntervalInBackground: false`), so a phone in a pocket asks nothing.
 * The navigation's unread count is unread.ts's.
 */
/** While a conversation is open: their new messages and our ticks. */
export const MESSAGES_EVERY_MS = 4_000;

export interface ConversationQuery {
  filter: ConversationFilter;
  q: string;
}

export function conversationsQuery(query: ConversationQuery, cursor?: string): string {
  const params = new URLSearchParams();
  if (query.filter !== 'all') params.set('filter', query.filter);
  if (query.q) params.set('q', query.q);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** "Conversaciones": newest message first, page after page; refreshed with the badge. */
export function useConversations(query: ConversationQuery) {
  const result = useInfiniteQuery({
    queryKey: keys.conversations(query),
    queryFn: ({ pageParam }) =>
      api<ConversationPage>(`/api/admin/whatsapp/conversations${conversationsQuery(query, pageParam ?? undefined)}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    refetchInterval: UNREAD_EVERY_MS,
  });
  const pages = result.data?.pages;
  return {
    conversations: pages?.flatMap((page) => page.conversations) ?? null,
    nextCursor: pages?.at(-1)?.nextCursor ?? null,
    loading: result.isFetching,
    error: result.error,
    retry: () => void result.refetch(),
    more: () => void result.fetchNextPage(),
  };
}

/** The contact's latest 50 messages, asked again every few seconds while the conversation is shown. */
export function useLatestMessages(contactId: string) {
  const erasing = useErasing(contactId);
  return useQuery({
    queryKey: keys.messages(contactId),
    queryFn: () => api<MessagePage>(`/api/admin/contacts/${contactId}/whatsapp/messages`),
    refetchInterval: MESSAGES_EVERY_MS,
    enabled: !erasing,
  });
}

/** The older pages, from the latest page's cursor, once "Cargar anteriores" (or the scroll) asks. */
export function useOlderMessages(contactId: string, from: string | null, wanted: boolean) {
  const erasing = useErasing(contactId);
  const query = useInfiniteQuery({
    queryKey: keys.olderMessages(contactId, from ?? ''),
    queryFn: ({ pageParam }) =>
      api<MessagePage>(`/api/admin/contacts/${contactId}/whatsapp/messages?before=${encodeURIComponent(pageParam)}`),
    initialPageParam: from ?? '',
    getNextPageParam: (last) => last.nextCursor,
    enabled: wanted && from !== null && !erasing,
    meta: { errorTitle: 'Error al cargar mensajes anteriores' },
  });
  const pages = query.data?.pages ?? [];
  return {
    messages: pages.flatMap((page) => page.messages),
    nextCursor: pages.length ? (pages.at(-1)?.nextCursor ?? null) : from,
    loading: query.isFetching,
    more: () => void (pages.length ? query.fetchNextPage() : query.refetch()),
  };
}

/** Opening the conversation reads it for the team; the badge and the inbox follow. */
export const useMarkRead = (contactId: string) =>
  useMutation({
    mutationFn: () => api<void>(`/api/admin/contacts/${contactId}/whatsapp/read`, { method: 'POST' }),
    meta: { invalidates: [keys.unread, ['whatsapp', 'conversations']] },
  });

/** What the composer may send now (window, opt-out, templates filled in). */
export function useWhatsappState(contactId: string) {
  const erasing = useErasing(contactId);
  return useQuery({
    queryKey: keys.whatsappState(contactId),
    queryFn: () => api<WhatsappState>(`/api/admin/contacts/${contactId}/whatsapp`),
    refetchInterval: 60_000,
    enabled: !erasing,
  });
}

/** The quick replies, filled in for this contact and the member. */
export const useQuickReplies = (contactId: string) =>
  useQuery({
    queryKey: keys.quickReplies(contactId),
    queryFn: () => api<QuickReplyList>(`/api/admin/whatsapp/quick-replies${contactId ? `?contact=${contactId}` : ''}`),
  });

/** A message as it will look until the server answers (kept only until its 202). */
function pending(contactId: string, input: SendMessageInput, text: string): WhatsappMessage {
  const now = new Date().toISOString();
  return {
    id: `pending-${input.idempotencyKey}`,
    contactId,
    direction: 'out',
    kind: input.kind === 'slots' ? 'interactive' : input.kind,
    body: text,
    media: null,
    location: null,
    replyTo: null,
    status: 'sending',
    statusAt: now,
    error: null,
    templateName: input.kind === 'template' ? input.template : null,
    sentBy: null,
    automated: false,
    createdAt: now,
  };
}

/**
 * Sends through the queue: shown at once as "Enviando" (then as the 202
 * answers it), its ticks then follow the polling of the conversation.
 */
export function useSendMessage(contactId: string) {
  const client = useQueryClient();
  const key = keys.messages(contactId);
  const put = (change: (messages: WhatsappMessage[]) => WhatsappMessage[]) =>
    client.setQueryData<MessagePage>(key, (page) =>
      page ? { ...page, messages: change(page.messages) } : { messages: change([]), nextCursor: null },
    );
  return useMutation({
    mutationFn: ({ input }: { input: SendMessageInput; preview: string }) =>
      api<SendMessageAnswer>(`/api/admin/contacts/${contactId}/whatsapp/messages`, { method: 'POST', json: input }),
    onMutate: async ({ input, preview }) => {
      await client.cancelQueries({ queryKey: key, exact: true });
      put((messages) => [pending(contactId, input, preview), ...messages]);
    },
    onSuccess: ({ message }, { input }) =>
      put((messages) => [
        message,
        ...messages.filter((each) => each.id !== message.id && each.id !== `pending-${input.idempotencyKey}`),
      ]),
    onError: (_error, { input }) =>
      put((messages) => messages.filter((each) => each.id !== `pending-${input.idempotencyKey}`)),
    meta: { invalidates: [['whatsapp', 'conversations'], keys.whatsappState(contactId)] },
  });
}

// ---------- Quick replies (administrators edit them) ----------

export const useSaveQuickReply = () =>
  useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: QuickReplyInput }) =>
      api<{ quickReply: QuickReply }>(`/api/admin/whatsapp/quick-replies${id ? `/${id}` : ''}`, {
        method: id ? 'PATCH' : 'POST',
        json: input,
      }),
    meta: { invalidates: [['whatsapp', 'quick-replies']] },
  });

export const useDeleteQuickReply = () =>
  useMutation({
    mutationFn: (id: string) => api<void>(`/api/admin/whatsapp/quick-replies/${id}`, { method: 'DELETE' }),
    meta: { invalidates: [['whatsapp', 'quick-replies']], errorTitle: 'No se pudo eliminar la respuesta' },
  });
