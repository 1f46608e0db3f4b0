import { useUnread } from './queries.ts';

/**
 * The count of unread WhatsApp messages on the panel's navigation, asked
 * again every 15 s while the tab is visible (decision 0042: polling, not SSE).
 */
export function UnreadBadge({ enabled }: { enabled: boolean }) {
  const unread = useUnread(enabled).data?.messages ?? 0;
  if (unread === 0) return null;
  return (
    <span
      className="ml-2 rounded-full bg-danger-600 px-2 py-0.5 text-xs font-bold text-white"
      data-testid="unread-badge"
    >
      {unread > 99 ? '99+' : unread}
      <span className="sr-only"> {unread === 1 ? 'mensaje sin leer' : 'mensajes sin leer'}</span>
    </span>
  );
}
