import { createHmac } from 'node:crypto';
import type { NotificationConfig } from '../../config.ts';
import type { LeadMessage } from '../message.ts';
import { type ChannelModule, classifyFailure } from './channel.ts';

type WebhookConfig = NonNullable<NotificationConfig['webhook']>;

/** One POST: its JSON, and the id a receiver tells repeats by (X-Ceiba-Delivery). */
interface WebhookMessage {
  deliveryId: string;
  body: string;
}

const TIMEOUT_MS = 10_000;

/** Version of the webhook's JSON (docs/webhook.md); a change that breaks receivers raises it. */
export const WEBHOOK_SCHEMA_VERSION = 1;

/**
 * The signature a receiver recomputes: `sha256=` and the hex HMAC-SHA256,
 * keyed with NOTIFY_WEBHOOK_SECRET, of `<timestamp>.<body>` (docs/webhook.md).
 */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** POSTs the JSON body, signed; any answer but 2xx is a failed attempt. */
export async function sendWebhook(config: WebhookConfig, deliveryId: string, body: string): Promise<string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(config.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'ceiba-notificaciones/1',
      'X-Ceiba-Delivery': deliveryId,
      'X-Ceiba-Timestamp': timestamp,
      'X-Ceiba-Signature': webhookSignature(config.secret, timestamp, body),
    },
    body,
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`El receptor respondió HTTP ${response.status}`);
  return `HTTP ${response.status}`;
}

/** The webhook's JSON for a new lead (schema version 1, docs/webhook.md). */
export function leadWebhookBody(lead: LeadMessage): string {
  return JSON.stringify({
    version: WEBHOOK_SCHEMA_VERSION,
    event: 'lead.created',
    delivery_id: lead.leadId,
    sent_at: new Date().toISOString(),
    lead: {
      id: lead.leadId,
      kind: lead.kind,
      form: lead.form,
      title: lead.title,
      created_at: lead.createdAt,
      name: lead.name,
      phone: lead.phone,
      email: lead.email,
      municipality: lead.municipality,
      fields: lead.fields,
      attribution: lead.attribution,
      data: lead.data,
    },
    contact: { id: lead.contactId },
    links: lead.links,
  });
}

export function testWebhookBody(deliveryId: string): string {
  return JSON.stringify({
    version: WEBHOOK_SCHEMA_VERSION,
    event: 'notification.test',
    delivery_id: deliveryId,
    sent_at: new Date().toISOString(),
  });
}

/** Signed JSON to NOTIFY_WEBHOOK_URL; a lead's delivery id is the lead's, so a receiver can tell a repeat. */
export const webhookChannel: ChannelModule<WebhookConfig, WebhookMessage> = {
  target: (settings) => new URL(settings.url).host,
  render: {
    lead: ({ lead }) => ({ deliveryId: lead.leadId, body: leadWebhookBody(lead) }),
    test: ({ deliveryId }) => ({ deliveryId, body: testWebhookBody(deliveryId) }),
  },
  send: (settings, message) => sendWebhook(settings, message.deliveryId, message.body),
  classify: (error) => classifyFailure(error),
};
