/**
 * The words and figures of WhatsApp conversations that the panel's islands
 * show (issue #27, decision 0039), without zod: `contract.ts` re-exports them
 * (import them from there on the server), so the browser gets these without
 * the send schemas, and the public pages' shared zod chunk does not grow
 * (`npm run bench:bundle`). Browser-safe.
 */

import { greetingName } from '../person-name.ts';

export const MESSAGE_KINDS = [
  'text',
  'image',
  'audio',
  'video',
  'document',
  'sticker',
  'location',
  'contacts',
  'reaction',
  'button',
  'interactive',
  'template',
  'unsupported',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Ours: sending -> sent -> delivered -> read, or failed; an automatic first
 * reply over the day's limit is held (never sent: an adviser writes instead).
 * Theirs: received.
 */
export const MESSAGE_STATUSES = ['received', 'sending', 'sent', 'delivered', 'read', 'failed', 'held'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  received: 'Recibido',
  sending: 'Enviando',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'No se envió',
  held: 'Retenida: escríbele tú',
};

/** What the panel says for a kind without text of its own (a voice note, a sticker...). */
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  text: 'Mensaje',
  image: 'Foto',
  audio: 'Audio',
  video: 'Video',
  document: 'Documento',
  sticker: 'Sticker',
  location: 'Ubicación',
  contacts: 'Contacto compartido',
  reaction: 'Reacción',
  button: 'Respuesta de botón',
  interactive: 'Respuesta de lista o botón',
  template: 'Plantilla',
  unsupported: 'Mensaje no compatible con WhatsApp Business',
};

export const MESSAGE_TEXT_MAX = 4096;

/** In a quick reply: `{nombre}` the contact's first name, `{asesor}` the sending member's first name. */
export const QUICK_REPLY_VARIABLES = { nombre: 'el nombre del prospecto', asesor: 'tu nombre' } as const;

/**
 * `{nombre}` and `{asesor}` filled in (unknown marks stay as written); an
 * empty value takes the space before its mark with it ("Hola {nombre}," -> "Hola,").
 */
export function renderQuickReply(body: string, values: { nombre: string; asesor: string }): string {
  return body.replace(/( ?)\{(nombre|asesor)\}/g, (_mark, space: string, name: 'nombre' | 'asesor') =>
    values[name] ? `${space}${values[name]}` : '',
  );
}

/** The values of a quick reply: the contact's first name only when it is a real name (decision 0049), the member's. */
export function quickReplyValues(contactName: string, memberName: string): { nombre: string; asesor: string } {
  return { nombre: greetingName(contactName) ?? '', asesor: memberName.trim().split(/\s+/)[0] ?? '' };
}

export const CONVERSATION_FILTERS = ['all', 'mine', 'unassigned', 'waiting', 'opted_out', 'unread'] as const;
export type ConversationFilter = (typeof CONVERSATION_FILTERS)[number];

export const CONVERSATION_FILTER_LABELS: Record<ConversationFilter, string> = {
  all: 'Todas',
  mine: 'Mías',
  unassigned: 'Sin asignar',
  waiting: 'Esperan respuesta',
  opted_out: 'Dados de baja',
  unread: 'No leídas',
};

/** "Esperan respuesta": their message has waited this long for a person of ours. */
export const WAITING_MINUTES = 15;
