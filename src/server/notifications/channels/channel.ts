import type { DeliveryPurpose } from '../../../lib/admin/notifications.ts';
import type { InboundMessageNotice } from '../../whatsapp/notify.ts';
import type { LeadMessage } from '../message.ts';
import type { ReminderMessage } from '../render.ts';
import type { DailySummary } from '../summary.ts';

/** What one delivery is about, ready for a channel to render: one shape per purpose. */
export type Notice =
  | { purpose: 'lead'; deliveryId: string; lead: LeadMessage }
  | { purpose: 'test'; deliveryId: string; panelUrl: string }
  | { purpose: 'summary'; deliveryId: string; summary: DailySummary }
  | { purpose: 'reminder'; deliveryId: string; reminder: ReminderMessage }
  | { purpose: 'message'; deliveryId: string; message: InboundMessageNotice };

/** Every purpose the table allows has its notice (a new purpose fails here until it has one). */
type Covers<T extends true> = T;
export type NoticeCoversEveryPurpose = Covers<DeliveryPurpose extends Notice['purpose'] ? true : false>;

export type NoticeOf<P extends Notice['purpose']> = Extract<Notice, { purpose: P }>;

/** How a failed send is recorded: retried later, or `failed` at once. */
export interface Failure {
  permanent: boolean;
  /** For the team, in Spanish where the error is a known one, never a secret. */
  reason: string;
}

/**
 * One notification channel (issue #24): everything deliver.ts and the panel
 * need of it. `Settings` is what its environment variables give (its entry of
 * NotificationConfig, null when it is off: src/server/outbox/channels.ts, which the
 * queue and the worker ask), `Message` what its sender takes. (Methods, not function
 * properties: a module with its own types still fits `ChannelModule`.)
 */
export interface ChannelModule<Settings = unknown, Message = unknown> {
  /** Where it sends, without what would let anyone else use it (the panel). */
  target(settings: Settings): string;
  /** Its message for each purpose it carries; lead and test for every channel (the panel's "Enviar prueba"). */
  render: {
    lead(notice: NoticeOf<'lead'>): Message;
    test(notice: NoticeOf<'test'>): Message;
    /** The 8:00 summary: only the channels that carry it. */
    summary?(notice: NoticeOf<'summary'>): Message;
    /** A next contact come due, to one member: only the channels that address a member (e-mail). */
    reminder?(notice: NoticeOf<'reminder'>): Message;
    /** Their WhatsApp messages, to the member who follows the contact (e-mail). */
    message?(notice: NoticeOf<'message'>): Message;
  };
  /** Sends one message; the receiver's receipt, or throws. */
  send(settings: Settings, message: Message): Promise<string>;
  /** Whether retrying can fix this failure, and how to say it. */
  classify(error: unknown): Failure;
}

/** A failure that retrying cannot fix (a channel turned off, a rejected token or template): `failed` at once. */
export class PermanentFailure extends Error {
  override name = 'PermanentFailure';
}

/** The usual classification: permanent when the sender said so, the reason as `reasonOf` words it. */
export function classifyFailure(error: unknown, known?: Record<string, string>): Failure {
  return { permanent: error instanceof PermanentFailure, reason: reasonOf(error, known) };
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'El receptor rechazó la conexión',
  ENOTFOUND: 'No se encontró el servidor del receptor',
  EAI_AGAIN: 'No se encontró el servidor del receptor',
  ETIMEDOUT: 'El receptor no respondió a tiempo',
  ETIMEOUT: 'El receptor no respondió a tiempo',
  ECONNRESET: 'El receptor cortó la conexión',
  EPIPE: 'El receptor cortó la conexión',
  UND_ERR_CONNECT_TIMEOUT: 'El receptor no respondió a tiempo',
  UND_ERR_SOCKET: 'El receptor cortó la conexión',
};

/**
 * The reason shown to the team: a known network error in Spanish (with its
 * code, for whoever fixes it), `known` adding a channel's own codes, else the
 * error's message.
 */
export function reasonOf(error: unknown, known: Record<string, string> = {}): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  if (error.name === 'TimeoutError') return 'El receptor no respondió a tiempo';
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code ?? undefined;
  const reason = code ? (known[code] ?? REASONS[code]) : undefined;
  if (reason) return `${reason} (${code})`;
  return (code && !error.message.includes(code) ? `${error.message} (${code})` : error.message).slice(0, 500);
}
