import { WHATSAPP_OPT_OUT } from '../../data/whatsapp-opt-out.ts';
import { withoutBidiControls } from '../../lib/bidi.ts';
import { MESSAGE_KIND_LABELS, MESSAGE_KINDS, type MessageKind } from '../../lib/whatsapp/contract.ts';
import { MEDIA_ID } from './cloud-api.ts';

/**
 * The Cloud API's `messages` webhook (Meta's "messages webhook reference"):
 * `{object: 'whatsapp_business_account', entry: [{id, changes: [{field:
 * 'messages', value: {metadata, contacts: [{profile: {name}, wa_id}],
 * messages: [...], statuses: [...], errors: [...]}}]}]}`. Read defensively:
 * an unknown or malformed part is skipped, never a failure of the rest.
 */

type Json = Record<string, unknown>;
const object = (value: unknown): Json | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export interface InboundMessage {
  waMessageId: string;
  /** The sender's WhatsApp id (digits). */
  from: string;
  profileName: string | null;
  /** The platform's time of the message. */
  at: Date;
  kind: MessageKind;
  body: string;
  /** Their words to read as a request (an opt-out): a text's, or the title of the button or list row they chose. */
  words: string;
  media: { id: string; mime: string | null; filename: string | null } | null;
  replyTo: string | null;
  /** A click-to-WhatsApp ad's referral. */
  referral: {
    sourceUrl: string | null;
    sourceId: string | null;
    sourceType: string | null;
    headline: string | null;
    /** The click's id, for the conversions told back to Meta (issue #43); absent for WhatsApp Status ads. */
    ctwaClid: string | null;
  } | null;
  raw: Json;
}

export interface StatusUpdate {
  waMessageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: Date;
  recipient: string | null;
  /** biz_opaque_callback_data: our message's id, echoed. */
  callback: string | null;
  error: { code: number | null; title: string | null } | null;
}

export interface WebhookContent {
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  /** Changes for another number of the business account, left unread. */
  otherNumbers: number;
}

const MEDIA_KINDS = new Set(['image', 'audio', 'video', 'document', 'sticker']);
// Theirs: the kinds of lib/whatsapp/words.ts but a template (only ours) and 'unsupported' (what any other type becomes).
const KINDS = new Set<string>(MESSAGE_KINDS.filter((kind) => kind !== 'template' && kind !== 'unsupported'));
const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

function timestamp(value: unknown): Date {
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

/** The text the panel shows for a message, by its type. */
function bodyOf(kind: MessageKind, message: Json): string {
  const part = object(message[kind]) ?? {};
  switch (kind) {
    case 'text':
      return text(part.body) ?? '';
    case 'image':
    case 'video':
    case 'document':
      return text(part.caption) ?? (kind === 'document' ? (text(part.filename) ?? '') : '');
    case 'location':
      return [text(part.name), text(part.address)].filter(Boolean).join(', ');
    case 'contacts':
      return list(message.contacts)
        .map((entry) => {
          const card = object(entry) ?? {};
          const name = text(object(card.name)?.formatted_name) ?? '';
          const phones = list(card.phones)
            .map((phone) => text(object(phone)?.phone))
            .filter(Boolean)
            .join(', ');
          return [name, phones].filter(Boolean).join(': ');
        })
        .filter(Boolean)
        .join('\n');
    case 'reaction':
      return text(part.emoji) ?? '';
    case 'button':
      return text(part.text) ?? text(part.payload) ?? '';
    case 'interactive': {
      const reply = object(part.button_reply) ?? object(part.list_reply) ?? object(part.nfm_reply) ?? {};
      return [text(reply.title), text(reply.description)].filter(Boolean).join(' — ');
    }
    default:
      return '';
  }
}

/** What they wrote or chose, without a list row's description: the words an opt-out is read from. */
function wordsOf(kind: MessageKind, message: Json, body: string): string {
  if (kind === 'text' || kind === 'button') return body;
  if (kind !== 'interactive') return '';
  const part = object(message[kind]) ?? {};
  const reply = object(part.button_reply) ?? object(part.list_reply) ?? {};
  return text(reply.title) ?? '';
}

function inbound(message: Json, names: Map<string, string>): InboundMessage | null {
  const waMessageId = text(message.id);
  const from = text(message.from);
  if (!waMessageId || !from || !/^\d{6,20}$/.test(from)) return null;
  const type = text(message.type) ?? 'unsupported';
  const kind: MessageKind = KINDS.has(type) ? (type as MessageKind) : 'unsupported';
  const part = object(message[kind]) ?? {};
  // The platform's media ids are numbers: any other is kept as a message without its file, never fetched.
  const mediaId = MEDIA_KINDS.has(kind) ? text(part.id) : null;
  const validMedia = mediaId !== null && MEDIA_ID.test(mediaId);
  const referral = object(message.referral);
  const context = object(message.context);
  const body = bodyOf(kind, message).slice(0, 4096);
  return {
    waMessageId: waMessageId.slice(0, 200),
    from,
    profileName: names.get(from) ?? null,
    at: timestamp(message.timestamp),
    kind,
    body,
    words: wordsOf(kind, message, body),
    media: validMedia
      ? {
          id: mediaId,
          mime: text(part.mime_type)?.slice(0, 200) ?? null,
          filename: text(part.filename)?.slice(0, 500) ?? null,
        }
      : null,
    replyTo: (kind === 'reaction' ? text(part.message_id) : null) ?? text(context?.id),
    referral: referral
      ? {
          sourceUrl: text(referral.source_url),
          sourceId: text(referral.source_id),
          sourceType: text(referral.source_type),
          headline: text(referral.headline),
          ctwaClid: clickId(text(referral.ctwa_clid)),
        }
      : null,
    raw: message,
  };
}

/** A click id as the platforms write it (printable ASCII, no spaces), or null. */
function clickId(value: string | null): string | null {
  return value && /^[!-~]{1,500}$/.test(value) ? value : null;
}

function status(value: Json): StatusUpdate | null {
  const waMessageId = text(value.id);
  const name = text(value.status);
  if (!waMessageId || !name || !STATUSES.has(name)) return null;
  const error = object(list(value.errors)[0]);
  return {
    waMessageId,
    status: name as StatusUpdate['status'],
    at: timestamp(value.timestamp),
    recipient: text(value.recipient_id),
    callback: text(value.biz_opaque_callback_data),
    error: error
      ? {
          code: typeof error.code === 'number' ? error.code : null,
          title: text(error.title) ?? text(error.message),
        }
      : name === 'failed'
        ? { code: null, title: null }
        : null,
  };
}

/**
 * The messages and statuses of one delivery of the webhook, from its JSON as
 * received. Every string of it loses its bidirectional controls here, where
 * the platform's text enters (decision 0050): the texts, captions, file names,
 * replies, profile names and the raw JSON kept with each message (a
 * location's name) are shown to the team as they were written. PostgreSQL
 * cannot store a NUL character (the messages' raw jsonb): it becomes U+FFFD.
 *
 * Only our number's changes are read (`metadata.phone_number_id`): the app's
 * webhook and secret serve every number of the business account (Meta's
 * test number, another office's line), whose messages are not this site's
 * people and whose windows ours cannot answer in; their count is returned.
 */
export function readWebhook(json: string, phoneNumberId: string): WebhookContent {
  const body: unknown = JSON.parse(json.replaceAll('\\u0000', '\\ufffd'), (_key, value: unknown) =>
    typeof value === 'string' ? withoutBidiControls(value) : value,
  );
  const content: WebhookContent = { messages: [], statuses: [], otherNumbers: 0 };
  for (const entry of list(object(body)?.entry)) {
    for (const change of list(object(entry)?.changes)) {
      const value = object(object(change)?.value);
      if (!value) continue;
      const number = text(object(value.metadata)?.phone_number_id);
      if (number && number !== phoneNumberId) {
        content.otherNumbers += 1;
        continue;
      }
      const names = new Map<string, string>();
      for (const contact of list(value.contacts)) {
        const card = object(contact);
        const waId = text(card?.wa_id);
        const name = text(object(card?.profile)?.name);
        if (waId && name) names.set(waId, name);
      }
      for (const message of list(value.messages)) {
        const read = object(message) && inbound(message as Json, names);
        if (read) content.messages.push(read);
      }
      for (const update of list(value.statuses)) {
        const read = object(update) && status(update as Json);
        if (read) content.statuses.push(read);
      }
    }
  }
  return content;
}

/** The first line of a message for the inbox (<= 160 characters), or its kind's label. */
export function previewOf(kind: MessageKind, body: string): string {
  const line = body.split('\n').find((entry) => entry.trim() !== '') ?? '';
  const preview = line.trim() || MESSAGE_KIND_LABELS[kind];
  return preview.length > 160 ? `${preview.slice(0, 159)}…` : preview;
}

/**
 * A message's words as the opt-out list is written: width folded (NFKC:
 * "ＳＴＯＰ" is "stop"), lower case, without accents, every run of signs,
 * emoji and spaces one space.
 */
export function plainWords(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const OPT_OUT_PHRASES = new Set<string>(WHATSAPP_OPT_OUT.phrases);
/** Longest first: "muchas gracias" goes whole before "gracias" could. */
const COURTESY = [...WHATSAPP_OPT_OUT.courtesy].sort((a, b) => b.length - a.length);

/**
 * One of the opt-out phrases (src/data/whatsapp-opt-out.ts), alone or among
 * courtesy words only: "Baja por favor", "BAJA, gracias", "ＳＴＯＰ", "¡Alto!";
 * never a sentence that contains one ("no me des de baja", "Baja California").
 */
export function isOptOut(text: string): boolean {
  let words = plainWords(text);
  // A request to stop is a few words; a long message is for an adviser to read.
  if (words.length > 200) return false;
  for (let changed = true; changed && words !== ''; ) {
    changed = false;
    for (const courtesy of COURTESY) {
      if (words.startsWith(`${courtesy} `)) words = words.slice(courtesy.length + 1);
      else if (words.endsWith(` ${courtesy}`)) words = words.slice(0, -courtesy.length - 1);
      else continue;
      changed = true;
    }
  }
  return OPT_OUT_PHRASES.has(words);
}
