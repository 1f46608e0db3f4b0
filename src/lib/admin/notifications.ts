import * as z from 'zod/mini';
import type { CALL_KIND } from '../voice/calls.ts';
import type { LeadKind } from './columns.ts';

/** What a lead notification can be about: a form's request, or a voice call that left a phone. */
export type NotifiedKind = LeadKind | typeof CALL_KIND;

/**
 * The notification channels, in the panel's order: the one list (issue #24).
 * Everything else derives from it: the server's implementations are a
 * `Record` keyed by it (src/server/notifications/channels/index.ts, a missing
 * one is a type error), the queue and the worker's tasks read that record,
 * and a test holds the table's CHECK to it (tests/api/notification-channels.test.ts).
 * Adding a channel: docs/decisions/0029-channels-behind-one-interface.md.
 */
export const CHANNEL_REGISTRY = {
  email: { label: 'Correo', inText: 'correo', settings: 'SMTP_URL, NOTIFY_EMAIL_FROM y NOTIFY_EMAIL_TO' },
  webhook: { label: 'Webhook', inText: 'webhook', settings: 'NOTIFY_WEBHOOK_URL y NOTIFY_WEBHOOK_SECRET' },
  whatsapp: {
    label: 'WhatsApp',
    inText: 'WhatsApp',
    settings: 'WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE y WHATSAPP_TO',
  },
} as const satisfies Record<string, ChannelEntry>;

interface ChannelEntry {
  /** Its name on its own (a heading, a badge). */
  label: string;
  /** Its name inside a sentence. */
  inText: string;
  /** The environment variables that turn it on, for the panel's help. */
  settings: string;
}

export type NotificationChannel = keyof typeof CHANNEL_REGISTRY;
export const NOTIFICATION_CHANNELS = Object.keys(CHANNEL_REGISTRY) as [NotificationChannel, ...NotificationChannel[]];

const channelField = <T>(pick: (entry: ChannelEntry) => T) =>
  Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, pick(CHANNEL_REGISTRY[channel])])) as Record<
    NotificationChannel,
    T
  >;

export const CHANNEL_LABELS: Record<NotificationChannel, string> = channelField((entry) => entry.label);
export const CHANNEL_SETTINGS: Record<NotificationChannel, string> = channelField((entry) => entry.settings);

/** "correo, webhook o WhatsApp" */
const channelsInText = new Intl.ListFormat('es', { type: 'disjunction' }).format(
  NOTIFICATION_CHANNELS.map((channel) => CHANNEL_REGISTRY[channel].inText),
);

export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery being sent is, for the team, still pending. */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'pendiente',
  sending: 'pendiente',
  sent: 'enviada',
  failed: 'falló',
};

export const PURPOSE_LABELS = {
  lead: 'Nuevo prospecto',
  test: 'Prueba',
  summary: 'Resumen diario',
  reminder: 'Recordatorio',
  message: 'Mensaje de WhatsApp',
} as const;
export type DeliveryPurpose = keyof typeof PURPOSE_LABELS;

export interface DeliveryView {
  id: string;
  channel: NotificationChannel;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  sentAt: string | null;
  updatedAt: string;
}

export interface DeliveryEntry extends DeliveryView {
  purpose: DeliveryPurpose;
  contactId: string | null;
  contactName: string | null;
}

export interface ChannelView {
  channel: NotificationChannel;
  on: boolean;
  /** Where it goes, without secrets: addresses, the webhook's host, the last digits of the number. */
  target: string | null;
}

export interface NotificationsOverview {
  channels: ChannelView[];
  lastSent: DeliveryEntry | null;
  failures: DeliveryEntry[];
  pending: number;
  /** "8:00 (hora de Mérida)" when the e-mail channel is on. */
  summary: string | null;
  /** When a failed notification is tried again: "1 min, 5 min, 30 min, 2 h y 12 h". */
  retries: string;
}

/** "1 intento", "3 intentos". */
export const attemptsText = (attempts: number): string => `${attempts} ${attempts === 1 ? 'intento' : 'intentos'}`;

export const testNotificationSchema = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS, { error: `Elige un canal: ${channelsInText}.` }),
});

export const CHANNEL_OFF = 'Este canal está desactivado: configura sus variables de entorno (README, Notificaciones).';
export const DELIVERY_NOT_RETRYABLE = 'Esta notificación ya se envió o se está enviando.';
/** "Reintentar" on a conversation's notice while a newer one for it waits. */
export const DELIVERY_SUPERSEDED =
  'Ya hay un aviso más reciente de esta conversación en camino: ese incluye estos mensajes.';
