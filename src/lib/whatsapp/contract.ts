/**
 * WhatsApp conversations (issue #27): the shapes the panel and the functions
 * exchange, one definition for both (decision 0039 describes every endpoint).
 * Browser-safe: zod's mini build and types only.
 */
import * as z from 'zod/mini';
import '../forms/errors.ts';
import { multiLineChecks } from '../admin/text.ts';
import { TEMPLATE_NAMES, type TemplateName } from './templates.ts';
import { MESSAGE_TEXT_MAX, type MessageKind, type MessageStatus } from './words.ts';

export {
  CONVERSATION_FILTER_LABELS,
  CONVERSATION_FILTERS,
  type ConversationFilter,
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  MESSAGE_STATUS_LABELS,
  MESSAGE_STATUSES,
  MESSAGE_TEXT_MAX,
  type MessageKind,
  type MessageStatus,
  QUICK_REPLY_VARIABLES,
  quickReplyValues,
  renderQuickReply,
  WAITING_MINUTES,
} from './words.ts';

/** One message, theirs (`in`) or ours (`out`). Every text is plain text: render it as text, never as HTML. */
export interface WhatsappMessage {
  id: string;
  contactId: string;
  direction: 'in' | 'out';
  kind: MessageKind;
  /** The text to show: the message, a caption, a button's title, the template filled in, a place, the emoji of a reaction. */
  body: string;
  /** A photo, audio, video, document or sticker: `url` is our proxy (GET, signed-in members only), never the platform's. */
  media: { url: string; mime: string | null; filename: string | null } | null;
  /** A shared place (kind `location`). */
  location: { latitude: number; longitude: number; name: string | null; address: string | null } | null;
  /** The platform's id of the message this one answers or reacts to, and ours if we have it. */
  replyTo: { waMessageId: string; messageId: string | null } | null;
  status: MessageStatus;
  /** When the status last moved (ISO 8601). */
  statusAt: string;
  /** Why it was not sent, in Spanish (status `failed`); `code` is the platform's error code when it gave one. */
  error: { code: number | null; reason: string } | null;
  templateName: string | null;
  /** Ours: who sent it (a member; null with `automated` for the instant first reply). */
  sentBy: { id: string | null; name: string } | null;
  automated: boolean;
  /** Theirs: when they sent it (the platform's time); ours: when it was pressed. ISO 8601. */
  createdAt: string;
  /** Ours, an interactive list (the free slots, decision 0063): its button and rows as the buyer sees them. */
  list?: InteractiveList | null;
}

/** An interactive list message as sent (Meta's `interactive.action`), without the rows' ids. */
export interface InteractiveList {
  button: string;
  footer: string | null;
  sections: { title: string; rows: { title: string; description: string | null }[] }[];
}

// ---------- Sending (POST /api/admin/contacts/:id/whatsapp/messages) ----------

const idempotencyKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,128}$/, 'Clave de envío no válida.'));

export const sendMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    /** Free text (a quick reply's text, edited or not, is free text too). */
    text: z
      .string()
      .check(
        ...multiLineChecks,
        z.trim(),
        z.minLength(1, 'Escribe el mensaje.'),
        z.maxLength(MESSAGE_TEXT_MAX, `El mensaje admite hasta ${MESSAGE_TEXT_MAX} caracteres.`),
      ),
    /** The quick reply it came from, if any (recorded, not required). */
    quickReplyId: z.optional(z.uuid()),
    idempotencyKey,
  }),
  z.object({
    kind: z.literal('template'),
    template: z.enum(TEMPLATE_NAMES, 'Elige una plantilla de la lista.'),
    idempotencyKey,
  }),
  /** "Horarios disponibles": an interactive list of the next free slots of a kind of appointment at a place (decision 0063). */
  z.object({
    kind: z.literal('slots'),
    appointment: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'Elige el tipo de cita.')),
    place: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'Elige el lugar de la cita.')),
    idempotencyKey,
  }),
]);
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

/** 202 (stored now, status `sending`) or 200 (the same key sent before: that message, as it is now). */
export interface SendMessageAnswer {
  message: WhatsappMessage;
}

/**
 * Why a send is refused before it is stored (409 `{ error, reason }`, `error` in Spanish):
 * - window_closed: free text outside the 24-hour window (use a template);
 * - never_wrote: free text to a contact who never wrote to us (use a template until they write);
 * - opted_out: a template to someone who wrote BAJA / ALTO / STOP;
 * - no_phone: a contact without a number WhatsApp can reach;
 * - key_reused: the idempotency key was used for another message or contact;
 * - no_slots: "Horarios disponibles" found no free slot of that kind and place (or the kind or place does not exist);
 * - template_limit: members sent this contact MEMBER_TEMPLATES_PER_DAY templates in the last 24 hours (each is billed).
 * 503 `{ error, reason: 'not_configured' }` when the WhatsApp variables are unset.
 */
export const SEND_REFUSALS = [
  'window_closed',
  'never_wrote',
  'opted_out',
  'no_phone',
  'key_reused',
  'not_configured',
  'no_slots',
  'template_limit',
] as const;

/** Templates the team may send one contact in 24 hours (each is billed by WhatsApp; automatic ones have their own allowance). */
export const MEMBER_TEMPLATES_PER_DAY = 3;
export type SendRefusal = (typeof SEND_REFUSALS)[number];
export interface SendRefusalAnswer {
  error: string;
  reason: SendRefusal;
}

// ---------- The contact's WhatsApp state (GET /api/admin/contacts/:id/whatsapp) ----------

export const CUSTOMER_SERVICE_WINDOW_HOURS = 24;

export interface TemplateOption {
  name: TemplateName;
  label: string;
  language: string;
  /** The approved body with `{nombre}`... */
  body: string;
  /** The body filled in for this contact (what will be sent and stored). */
  preview: string;
}

export interface WhatsappState {
  /** WhatsApp's variables are set: false, the composer says sending is off. */
  configured: boolean;
  /** The 24-hour customer-service window, from their last message. */
  window: { open: boolean; lastInboundAt: string | null; closesAt: string | null };
  /** They wrote BAJA / ALTO / STOP (when): templates are refused. */
  optedOutAt: string | null;
  /** What the composer may send now. */
  allowed: { text: boolean; templates: boolean };
  /** Why something is not allowed, in Spanish, for the composer to say (null when everything is). */
  reason: string | null;
  /** The templates, filled in for this contact (empty when templates are not allowed). */
  templates: TemplateOption[];
  /** "Horarios disponibles": the kinds of appointment and their places a list may offer (empty outside the window). */
  slotOptions?: SlotOption[];
}

/** A kind of appointment at one of its places (src/data/appointments.json), as the composer offers it. */
export interface SlotOption {
  appointment: string;
  place: string;
  /** "Visita a la casa muestra · Casa muestra Mérida". */
  label: string;
}

// ---------- Templates (GET /api/admin/whatsapp/templates) ----------

export interface TemplateList {
  templates: Omit<TemplateOption, 'preview'>[];
}

// ---------- Quick replies (/api/admin/whatsapp/quick-replies) ----------

export { type QuickReplyInput, quickReplyPatchSchema, quickReplySchema } from './quick-reply.ts';

export interface QuickReply {
  id: string;
  title: string;
  /** As saved, with its `{variables}`. */
  body: string;
  /** Filled in for `?contact=` and the signed-in member; absent without `contact`. */
  text?: string;
  updatedAt: string;
}
export interface QuickReplyList {
  quickReplies: QuickReply[];
}

// ---------- Media (GET /api/admin/whatsapp/media/:messageId) ----------

/** The proxy's address of a message's media. */
export const mediaUrl = (messageId: string): string => `/api/admin/whatsapp/media/${messageId}`;

// ---------- The inbox (read endpoints, built with the panel) ----------

export interface ConversationSummary {
  contactId: string;
  name: string;
  phone: string;
  assignedTo: { id: string; name: string } | null;
  lastMessage: { id: string | null; at: string; direction: 'in' | 'out'; preview: string };
  unread: number;
  /** Their oldest message not answered by a person since (null: nobody waits). */
  waitingSince: string | null;
  optedOutAt: string | null;
}

/** GET /api/admin/whatsapp/conversations?filter=&q=&cursor= : newest first, 30 a page. */
export interface ConversationPage {
  conversations: ConversationSummary[];
  nextCursor: string | null;
}

/** GET /api/admin/contacts/:id/whatsapp/messages?before= : newest first, 50 a page (the panel shows them oldest first). */
export interface MessagePage {
  messages: WhatsappMessage[];
  /** Pass as `before` for the older page; null at the first message. */
  nextCursor: string | null;
}

/** GET /api/admin/whatsapp/unread : the badge. */
export interface UnreadCount {
  /** Unread messages over every conversation, and the conversations that have any. */
  messages: number;
  conversations: number;
}
