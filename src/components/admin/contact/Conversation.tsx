import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ContactDetail } from '../../../lib/admin/contacts.ts';
import { formatMeridaDay, meridaDayOf } from '../../../lib/admin/merida-time.ts';
import type { WhatsappMessage } from '../../../lib/whatsapp/contract.ts';
import { useLatestMessages, useMarkRead, useOlderMessages } from '../conversations/queries.ts';
import { BusyButton, LoadFailed } from '../shared/ui.tsx';
import { Composer } from './Composer.tsx';
import { MessageBubble } from './MessageBubble.tsx';
import { mergeStream } from './stream.ts';
import { TimelineRow, useNoteRemoval } from './Timeline.tsx';

/** Oldest first, each message once (a page polled again, an optimistic one replaced by its answer). */
function inOrder(...lists: WhatsappMessage[][]): WhatsappMessage[] {
  const byId = new Map<string, WhatsappMessage>();
  for (const list of lists) for (const message of list) if (!byId.has(message.id)) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) =>
    a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1,
  );
}

/**
 * The contact's WhatsApp conversation and history as one stream (issue #27,
 * decision 0043): bubbles and the history's requests, calls, notes and
 * changes in time order, by day in Mérida's time; older messages (and the
 * history of their time) on scroll or "Cargar anteriores"; the latest
 * messages asked again every few seconds while shown (their new messages, our
 * ticks), read for the team as it is opened, and the composer stuck to the
 * bottom.
 */
export function Conversation({ contact, member }: { contact: ContactDetail; member: { id: string; admin: boolean } }) {
  const latest = useLatestMessages(contact.id);
  const notes = useNoteRemoval(contact.id, member);
  const [from, setFrom] = useState<string | null>(null);
  const older = useOlderMessages(contact.id, from, from !== null);
  const read = useMarkRead(contact.id);
  const box = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const messages = inOrder(latest.data?.messages ?? [], older.messages);
  const olderCursor = from === null ? (latest.data?.nextCursor ?? null) : older.nextCursor;
  // Without the messages (still loading, or failed), the history alone, whole.
  const failed = latest.isError && !latest.data;
  const stream = latest.data || failed ? mergeStream(messages, contact.timeline, failed || olderCursor === null) : [];
  const newestTheirs = latest.data?.messages.find((message) => message.direction === 'in')?.id ?? null;

  // Read as it is shown, and again when one of theirs arrives while it is open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: marks once per newest message of theirs
  useEffect(() => {
    if (latest.data) read.mutate();
  }, [newestTheirs, latest.data !== undefined]);

  // From the conversations' list (#whatsapp), the page opens on the conversation.
  useEffect(() => {
    if (window.location.hash === '#whatsapp') document.getElementById('whatsapp')?.scrollIntoView();
  }, []);

  // The box keeps its place: at the bottom for a new row, where it was when older ones are put above.
  const first = stream[0]?.key;
  const last = stream.at(-1)?.key;
  const seen = useRef({ first: undefined as string | undefined, last: undefined as string | undefined, height: 0 });
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const before = seen.current;
    if (before.first !== undefined && first !== before.first && last === before.last) {
      element.scrollTop += element.scrollHeight - before.height;
    } else if (last !== before.last) {
      element.scrollTop = element.scrollHeight;
    }
    seen.current = { first, last, height: element.scrollHeight };
  }, [first, last]);

  // Scrolled to the top: the older page comes by itself.
  const loadOlder = () => {
    if (!olderCursor || older.loading) return;
    if (from === null) setFrom(olderCursor);
    else older.more();
  };
  const loadOlderRef = useRef(loadOlder);
  loadOlderRef.current = loadOlder;
  useEffect(() => {
    const root = box.current;
    const target = top.current;
    if (!root || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && root.scrollHeight > root.clientHeight)
          loadOlderRef.current();
      },
      { root },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, []);

  let day = '';
  return (
    <section id="whatsapp" aria-labelledby="whatsapp-title" className="grid min-w-0 scroll-mt-4 gap-3">
      <h2 id="whatsapp-title" className="text-xl font-bold">
        Conversación e historial
      </h2>
      <div
        ref={box}
        className="grid max-h-[65dvh] min-h-40 content-start gap-2 overflow-y-auto overscroll-contain rounded-2xl bg-sand-100 p-3 ring-1 ring-brand-900/10"
        role="log"
        aria-label={`Conversación e historial de ${contact.name}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box is scrolled with the keyboard once focused (WCAG 2.1.1)
        tabIndex={0}
      >
        <div ref={top} className="flex justify-center">
          {olderCursor && !failed && (
            <BusyButton
              busy={older.loading}
              busyText="Cargando…"
              className="btn btn-outline min-h-11 px-4 py-2 text-sm"
              onClick={loadOlder}
            >
              Cargar anteriores
            </BusyButton>
          )}
        </div>
        {failed && (
          <LoadFailed
            error={latest.error}
            retry={() => void latest.refetch()}
            what="No se pudieron cargar los mensajes de WhatsApp."
          />
        )}
        {!latest.data && !failed ? (
          <p role="status" className="text-center text-brand-800">
            Cargando conversación…
          </p>
        ) : (
          <>
            {latest.data && messages.length === 0 && (
              <p className="text-center text-sm text-brand-800">Aún no hay mensajes de WhatsApp con este prospecto.</p>
            )}
            <ol className="grid gap-2">
              {stream.map((item) => {
                const thisDay = meridaDayOf(item.at);
                const separator = thisDay !== day;
                day = thisDay;
                return (
                  <Fragment key={item.key}>
                    {separator && (
                      <li className="flex justify-center py-1">
                        <span className="rounded-full bg-white px-3 py-1 text-xs font-semibold text-brand-800 ring-1 ring-brand-900/10">
                          {formatMeridaDay(item.at)}
                        </span>
                      </li>
                    )}
                    {item.type === 'message' ? (
                      <MessageBubble message={item.message} />
                    ) : (
                      <TimelineRow entry={item.entry} notes={notes} />
                    )}
                  </Fragment>
                );
              })}
            </ol>
          </>
        )}
      </div>
      <Composer contact={contact} />
    </section>
  );
}
