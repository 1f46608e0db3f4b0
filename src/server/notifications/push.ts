import { formatNextContact } from '../../lib/admin/merida-time.ts';
import type { PushConfig, ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { logJson } from '../log.ts';
import { isPushServiceEndpoint } from './push-endpoint.ts';
import type { PushJob } from './reminders.ts';
import { reminderTitle } from './render.ts';

/** What the panel's service worker shows (public/admin-sw.js reads these fields). */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a tap opens, on our own site. */
  url: string;
  /** One notification per contact on the device: a newer one replaces it. */
  tag: string;
}

/**
 * Sends one reminder to one device through its push service (RFC 8030),
 * encrypted for it (RFC 8291, aes128gcm) and signed with our VAPID keys
 * (RFC 8292), by the `web-push` library. A device whose subscription is gone
 * (404 / 410) is forgotten; any other failure throws, and graphile-worker
 * tries again later (up to the job's attempts). Nothing to send when the
 * device or the contact is gone; a device whose endpoint is not a browser's
 * push service (push-endpoint.ts) is forgotten without a connection.
 */
export async function sendPushReminder(db: Database, job: PushJob, config: ServerConfig): Promise<string> {
  const push = config.push;
  if (!push) return 'push off';
  const { rows } = await db.query<{ endpoint: string; p256dh: string; auth: string; name: string; phone: string }>(
    `SELECT s.endpoint, s.p256dh, s.auth, c.name, c.phone
     FROM push_subscriptions s JOIN users u ON u.id = s.user_id AND u.deactivated_at IS NULL, contacts c
     WHERE s.id = $1 AND c.id = $2`,
    [job.subscriptionId, job.contactId],
  );
  const target = rows[0];
  if (!target) return 'gone';
  // A device stored before endpoints were checked (decision 0052) and not a push service's: forgotten, never reached.
  if (!isPushServiceEndpoint(target.endpoint, push.testService)) {
    await db.query('DELETE FROM push_subscriptions WHERE id = $1', [job.subscriptionId]);
    logJson('warn', { event: 'push_endpoint_refused', subscription: job.subscriptionId });
    return 'refused';
  }
  const payload: PushPayload = {
    title: reminderTitle({ contactName: target.name, phone: target.phone }),
    body: `Próximo contacto: ${formatNextContact(job.at)}`,
    url: `/admin/prospecto?id=${job.contactId}`,
    tag: `recordatorio-${job.contactId}`,
  };
  return pushTo(db, push, job.subscriptionId, target, payload);
}

/**
 * Sends `payload` to one device already checked (a push service's endpoint):
 * a device whose subscription is gone (404 / 410) is forgotten; any other
 * failure throws. Shared by the next contact's reminder and an appointment's
 * notices to its adviser (src/server/appointment-messages/messages.ts).
 */
export async function pushTo(
  db: Database,
  push: PushConfig,
  subscriptionId: string,
  target: { endpoint: string; p256dh: string; auth: string },
  payload: PushPayload,
): Promise<string> {
  // web-push (with its ASN.1 and JWS code, about 30 modules) is loaded by the first push, not by every start.
  const { default: webpush, WebPushError } = await import('web-push');
  try {
    const result = await webpush.sendNotification(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      { vapidDetails: vapid(push), TTL: 12 * 3600, urgency: 'high', timeout: 15_000 },
    );
    logJson('info', { event: 'push_sent', subscription: subscriptionId, status: result.statusCode });
    return `push ${result.statusCode}`;
  } catch (error) {
    if (error instanceof WebPushError && (error.statusCode === 404 || error.statusCode === 410)) {
      await db.query('DELETE FROM push_subscriptions WHERE id = $1', [subscriptionId]);
      logJson('info', { event: 'push_subscription_gone', subscription: subscriptionId });
      return 'gone';
    }
    logJson('warn', {
      event: 'push_failed',
      subscription: subscriptionId,
      status: error instanceof WebPushError ? error.statusCode : null,
      error: (error as Error).message,
    });
    throw error;
  }
}

const vapid = (push: PushConfig) => ({ subject: push.subject, publicKey: push.publicKey, privateKey: push.privateKey });
