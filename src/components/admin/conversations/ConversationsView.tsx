import { useEffect, useState } from 'react';
import { formatShortDate } from '../../../lib/admin/columns.ts';
import { formatPhone } from '../../../lib/forms/phone.ts';
import type { ConversationSummary } from '../../../lib/whatsapp/contract.ts';
import {
  CONVERSATION_FILTER_LABELS,
  CONVERSATION_FILTERS,
  type ConversationFilter,
  WAITING_MINUTES,
} from '../../../lib/whatsapp/words.ts';
import { useDebounced } from '../session.ts';
import { ListFooter } from '../shared/ListFooter.tsx';
import { LoadFailed, Loading, SearchField } from '../shared/ui.tsx';
import { setUrlParams, useKeptScroll, useUrlParams } from '../shared/url.ts';
import { QuickRepliesEditor } from './QuickRepliesEditor.tsx';
import { useConversations } from './queries.ts';

const CHIP =
  'min-h-11 shrink-0 rounded-full px-4 text-sm font-semibold text-brand-800 ring-1 ring-brand-900/15 hover:bg-brand-900/5 aria-pressed:bg-brand-900 aria-pressed:text-white';

const filterOf = (value: string | null): ConversationFilter =>
  CONVERSATION_FILTERS.find((filter) => filter === value) ?? 'all';

/**
 * "Conversaciones" (issue #27): the team's WhatsApp conversations, newest
 * message first, with their unread messages, the last message's first line,
 * its time in Mérida and the adviser. The filter (?filtro=) and the search
 * (?q=) live in the address, as Prospectos keeps its own.
 */
export function ConversationsView({ admin }: { admin: boolean }) {
  const params = useUrlParams();
  const filter = filterOf(params.get('filtro'));
  const [search, setSearch] = useState(() => params.get('q') ?? '');
  const q = useDebounced(search.trim(), 250);
  useEffect(() => {
    if ((new URLSearchParams(window.location.search).get('q') ?? '') !== q) setUrlParams({ q });
  }, [q]);
  const { conversations, nextCursor, loading, error, retry, more } = useConversations({ filter, q });
  useKeptScroll(conversations !== null);

  return (
    <section aria-labelledby="conversations-title" className="grid min-w-0 gap-4">
      <h2 id="conversations-title" className="text-xl font-bold">
        Conversaciones
      </h2>
      <div className="grid gap-3 rounded-2xl bg-white p-4 ring-1 ring-brand-900/10">
        <SearchField
          label="Buscar por nombre o teléfono"
          value={search}
          onChange={setSearch}
          placeholder="Ej. María, 999 123 4567"
          maxLength={100}
        />
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Filtrar conversaciones</legend>
          {CONVERSATION_FILTERS.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={filter === name}
              className={CHIP}
              onClick={() => setUrlParams({ filtro: name === 'all' ? null : name })}
            >
              {CONVERSATION_FILTER_LABELS[name]}
            </button>
          ))}
        </fieldset>
      </div>

      {error && !conversations ? (
        <LoadFailed error={error} retry={retry} what="No se pudieron cargar las conversaciones." />
      ) : conversations === null ? (
        <Loading text="Cargando conversaciones…" />
      ) : conversations.length === 0 ? (
        <p className="rounded-2xl bg-white p-8 text-center text-brand-800 ring-1 ring-brand-900/10">
          {filter !== 'all' || q
            ? 'Ninguna conversación coincide con la búsqueda o el filtro.'
            : 'Aún no hay conversaciones de WhatsApp.'}
        </p>
      ) : (
        <ul className="grid gap-3" aria-label="Conversaciones">
          {conversations.map((conversation) => (
            <ConversationCard key={conversation.contactId} conversation={conversation} />
          ))}
        </ul>
      )}
      <ListFooter more={Boolean(nextCursor)} loading={loading} onMore={more} />
      {admin && <QuickRepliesEditor />}
    </section>
  );
}

function ConversationCard({ conversation }: { conversation: ConversationSummary }) {
  const { lastMessage, unread } = conversation;
  const firstLine = lastMessage.preview.split('\n')[0] ?? '';
  return (
    <li className="min-w-0">
      <a
        href={`/admin/prospecto?id=${conversation.contactId}#whatsapp`}
        className={`grid min-w-0 gap-1 rounded-2xl bg-white p-4 ring-1 hover:bg-brand-900/5 ${unread > 0 ? 'ring-2 ring-brand-700' : 'ring-brand-900/10'}`}
      >
        <span className="flex min-w-0 items-start justify-between gap-2">
          <span className="min-w-0 wrap-anywhere text-lg font-bold text-brand-900">{conversation.name}</span>
          <time dateTime={lastMessage.at} className="shrink-0 text-xs text-brand-800">
            {formatShortDate(lastMessage.at)}
          </time>
        </span>
        <span className="flex min-w-0 items-center justify-between gap-2">
          <span className={`min-w-0 truncate ${unread > 0 ? 'font-semibold text-brand-900' : 'text-brand-800'}`}>
            {lastMessage.direction === 'out' ? 'Tú: ' : ''}
            {firstLine}
          </span>
          {unread > 0 && (
            <span className="shrink-0 rounded-full bg-brand-900 px-2.5 py-0.5 text-xs font-bold text-white">
              {unread} <span className="sr-only">{unread === 1 ? 'mensaje sin leer' : 'mensajes sin leer'}</span>
            </span>
          )}
        </span>
        <span className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-brand-800">
          <span>{formatPhone(conversation.phone)}</span>
          <span>{conversation.assignedTo ? `Asesor: ${conversation.assignedTo.name}` : 'Sin asignar'}</span>
          {conversation.optedOutAt && <span className="font-semibold text-danger-600">Dado de baja</span>}
          {conversation.waitingSince &&
            Date.parse(conversation.waitingSince) < Date.now() - WAITING_MINUTES * 60_000 && (
              <span className="font-semibold">Espera respuesta desde {formatShortDate(conversation.waitingSince)}</span>
            )}
        </span>
      </a>
    </li>
  );
}
