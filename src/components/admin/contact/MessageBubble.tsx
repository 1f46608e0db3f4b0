// biome-ignore-all lint/a11y/useMediaCaption: a customer's voice note or video comes without captions to give
import { formatMeridaClock } from '../../../lib/admin/merida-time.ts';
import type { InteractiveList, WhatsappMessage } from '../../../lib/whatsapp/contract.ts';
import { MESSAGE_KIND_LABELS, MESSAGE_STATUS_LABELS, type MessageStatus } from '../../../lib/whatsapp/words.ts';

/** The ticks of ours, as WhatsApp draws them (the word beside them says the same for everyone). */
const TICKS: Record<MessageStatus, string> = {
  received: '',
  sending: '🕓',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
  failed: '⚠',
  held: '✋',
};

/** What a media message shows: inline for a photo, sticker, audio or video; a link for a document. */
function Media({ message }: { message: WhatsappMessage }) {
  const media = message.media;
  if (!media) return null;
  const label = MESSAGE_KIND_LABELS[message.kind];
  switch (message.kind) {
    case 'image':
    case 'sticker':
      return (
        <a href={media.url} target="_blank" rel="noopener" className="block">
          <img
            src={media.url}
            alt={message.body ? `${label}: ${message.body}` : label}
            loading="lazy"
            className={`rounded-lg ${message.kind === 'sticker' ? 'size-32' : 'max-h-72 w-full object-contain'}`}
          />
        </a>
      );
    case 'audio':
      return <audio controls preload="none" src={media.url} className="w-full max-w-72" aria-label={label} />;
    case 'video':
      return (
        <video controls preload="none" src={media.url} className="max-h-72 w-full rounded-lg" aria-label={label} />
      );
    default:
      return (
        <a href={media.url} className="inline-flex min-h-11 items-center font-semibold underline wrap-anywhere">
          📄 Descargar {media.filename ?? label.toLowerCase()}
        </a>
      );
  }
}

/**
 * An interactive list we sent (the free slots, decision 0063): its button
 * and rows as the buyer sees them once they open it, grouped by section.
 */
function ListRows({ list }: { list: InteractiveList }) {
  return (
    <div className="grid gap-1 rounded-lg bg-white/70 p-2 text-sm ring-1 ring-brand-900/10">
      <p className="font-semibold text-brand-800">
        <span aria-hidden="true">☰ </span>
        {list.button}
      </p>
      {list.sections.map((section) => (
        <div key={section.title}>
          {section.title && <p className="text-xs font-semibold text-brand-800">{section.title}</p>}
          <ul className="grid gap-0.5" aria-label={section.title || list.button}>
            {section.rows.map((row) => (
              <li key={row.title} className="wrap-anywhere">
                {row.title}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {list.footer && <p className="text-xs text-brand-800">{list.footer}</p>}
    </div>
  );
}

/** One message: theirs on the left, ours on the right with its status; every text rendered as text. */
export function MessageBubble({ message }: { message: WhatsappMessage }) {
  const ours = message.direction === 'out';
  const hasOwnText = message.body !== '';
  const fallback = !message.media && !message.location && message.body === '' ? MESSAGE_KIND_LABELS[message.kind] : '';
  return (
    <li
      className={`flex ${ours ? 'justify-end' : 'justify-start'}`}
      data-message={message.id}
      data-status={message.status}
    >
      <div
        className={`grid max-w-[85%] min-w-0 gap-1 rounded-2xl px-3 py-2 ring-1 sm:max-w-[70%] ${ours ? 'rounded-br-sm bg-brand-100 ring-brand-700/20' : 'rounded-bl-sm bg-white ring-brand-900/10'} ${message.status === 'failed' || message.status === 'held' ? 'ring-2 ring-danger-600' : ''}`}
      >
        {message.templateName && <p className="text-xs font-semibold text-brand-800">Plantilla</p>}
        <Media message={message} />
        {message.location && (
          <a
            className="font-semibold underline wrap-anywhere"
            href={`https://www.google.com/maps/search/?api=1&query=${message.location.latitude},${message.location.longitude}`}
            target="_blank"
            rel="noopener noreferrer"
          >
            📍 {message.location.name ?? message.location.address ?? 'Ubicación compartida'}
          </a>
        )}
        {hasOwnText && <p className="whitespace-pre-wrap wrap-anywhere">{message.body}</p>}
        {message.list && <ListRows list={message.list} />}
        {fallback && <p className="italic text-brand-800">{fallback}</p>}
        <p className={`text-xs text-brand-800 ${ours ? 'text-right' : ''}`}>
          <time dateTime={message.createdAt}>{formatMeridaClock(message.createdAt)}</time>
          {ours && (message.automated ? ' · Respuesta automática' : message.sentBy && ` · ${message.sentBy.name}`)}
          {ours && (
            <span className={message.status === 'read' ? 'font-semibold text-brand-700' : ''} data-testid="ticks">
              {' · '}
              <span aria-hidden="true">{TICKS[message.status]} </span>
              {MESSAGE_STATUS_LABELS[message.status]}
            </span>
          )}
        </p>
        {message.error && (
          <p className="text-sm font-semibold text-danger-600" role="note">
            {message.error.reason}
          </p>
        )}
      </div>
    </li>
  );
}
