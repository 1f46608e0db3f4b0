import * as z from 'zod/mini';
import type { CALL_KIND } from '../voice/calls.ts';
import type { LeadKind } from './columns.ts';

/** What a lead notification can be about: a form's request, or a voice call that left a phone. */
export type NotifiedKind = LeadKind | typeof CALL_KIND;

/** What the panel shows of notifications (shared by the functions and the panel). */
export const NOTIFICATION_CHANNELS = ['email', 'webhook', 'whatsapp'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  email: 'Correo',
  webhook: 'Webhook',
  whatsapp: 'WhatsApp',
};

export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery being sent is, for the team, still pending. */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'pendiente',
  sending: 'pendiente',
  sent: 'enviada',
  failed: 'falló',
};

export const PURPOSE_LABELS = { lead: 'Nuevo prospecto', test: 'Prueba', summary: 'Resumen diario' } as const;
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
  channel: z.enum(NOTIFICATION_CHANNELS, { error: 'Elige un canal: correo, webhook o WhatsApp.' }),
});

export const CHANNEL_OFF = 'Este canal está desactivado: configura sus variables de entorno (README, Notificaciones).';
export const DELIVERY_NOT_RETRYABLE = 'Esta notificación ya se envió o se está enviando.';
