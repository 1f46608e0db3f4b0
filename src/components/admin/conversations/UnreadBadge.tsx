import { useUnread } from './unread.ts';

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

/** Beside the reminders, on top of every view (the navigation's row scrolls on a phone): "3 mensajes sin leer". */
export function UnreadLink({ enabled }: { enabled: boolean }) {
  const unread = useUnread(enabled).data?.messages ?? 0;
  if (unread === 0) return null;
  return (
    <a
      href="/admin?vista=conversaciones&filtro=unread"
      className="inline-flex min-h-11 items-center rounded-full bg-brand-900 px-4 text-sm font-bold text-white"
    >
      {unread} {unread === 1 ? 'mensaje de WhatsApp sin leer' : 'mensajes de WhatsApp sin leer'}
    </a>
  );
}
