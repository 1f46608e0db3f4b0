import { createHmac } from 'node:crypto';
import type { NotificationConfig } from '../../config.ts';

type WebhookConfig = NonNullable<NotificationConfig['webhook']>;

const TIMEOUT_MS = 10_000;

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
