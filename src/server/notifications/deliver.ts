import type { DeliveryPurpose, NotificationChannel, NotifiedKind } from '../../lib/admin/notifications.ts';
import { publicSiteUrl, type ServerConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import { type ChannelSettings, channelSettings } from '../outbox/channels.ts';
import { scheduleDeliveries } from '../outbox/queue.ts';
import { takeNoticeAllowance } from '../whatsapp/allowance.ts';
import { inboundMessageNotice, laterMessagesNoticed } from '../whatsapp/notify.ts';
import { type ChannelModule, type Notice, PermanentFailure } from './channels/channel.ts';
import { CHANNEL_MODULES } from './channels/index.ts';
import { leadMessage } from './message.ts';
import { reminderMessage, remindOthers } from './reminders.ts';
import { dailySummary } from './summary.ts';

interface DeliveryRow {
  id: string;
  purpose: DeliveryPurpose;
  channel: NotificationChannel;
  lead_kind: NotifiedKind | null;
  lead_id: string | null;
  summary_day: string | null;
  contact_id: string | null;
  recipient_id: string | null;
  remind_at: Date | null;
  attempts: number;
  /** This claim's token: the row's outcome is written only while it is still ours. */
  claim_id: string;
}

/** What became of one call of `deliver`. */
export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'busy' | 'not-due' | 'gone' | 'done';

/** The longest one send may take: half the lock timeout, at most 15 s (a Netlify drain has 30 s). */
export const sendDeadlineMs = (lockTimeoutSeconds: number): number => Math.min(15_000, (lockTimeoutSeconds * 1000) / 2);

/**
 * Sends one delivery, the only way any notification is sent (the queue's
 * task, the lead function's "right after answering", "Reintentar").
 *
 * The row is claimed first (status `sending`, attempts + 1, a fresh claim
 * token) in one UPDATE, so two workers never send it at once; a claim older
 * than the lock timeout belongs to a worker that died and is taken over. A
 * send never outlives half that timeout, and the outcome is written only
 * under the sender's own token: a slow sender that was taken over cannot
 * overwrite the newer result. A failure is rescheduled
 * after the next delay of NOTIFY_RETRY_DELAYS; after the last one it is
 * `failed`. A receiver that accepted but whose answer was lost gets it again:
 * the delivery id (the lead's id) lets it tell (docs/webhook.md).
 */
export async function deliver(db: Database, deliveryId: string, config: ServerConfig): Promise<DeliveryOutcome> {
  const { lockTimeoutSeconds } = config.notifications;
  const { rows } = await db.query<DeliveryRow>(
    `UPDATE notification_deliveries SET ${CLAIM}
     WHERE id = $1
       AND (next_attempt_at IS NULL OR next_attempt_at <= now())
       AND (status = 'pending' OR (status = 'sending' AND claimed_at < now() - make_interval(secs => $2)))
     RETURNING ${CLAIMED}`,
    [deliveryId, lockTimeoutSeconds],
  );
  const delivery = rows[0];
  if (!delivery) return notClaimed(db, deliveryId, lockTimeoutSeconds);
  return sendClaimed(db, delivery, config);
}

/** A claim: the row is this sender's (status `sending`, a fresh token) until it records the outcome. */
const CLAIM = `status = 'sending', claimed_at = now(), claim_id = gen_random_uuid(), attempts = attempts + 1,
               updated_at = now()`;
const CLAIMED = `id, purpose, channel, lead_kind, lead_id, summary_day::text, contact_id, recipient_id, remind_at,
                 attempts, claim_id`;

/**
 * The fresh job's run (queue.ts, wakeFresh): claims the oldest `limit`
 * deliveries of leads never tried of `channel` (and any a dead run left
 * `sending` past the lock timeout) in one statement, skipping any that
 * another run is claiming (two runs never take the same one): the database
 * function claim_fresh_deliveries() (migration 0026), which walks the
 * channel's part of the waiting deliveries' index in order whatever the
 * statistics say (decision 0046). Then it sends them side by side, each as
 * `deliver` would. Answers how many it claimed. Rejects when a send's
 * outcome could not be recorded (the database failed): the others' outcomes
 * are recorded all the same, and what is left `sending` is taken over after
 * the lock timeout.
 */
export async function deliverFresh(
  db: Database,
  channel: NotificationChannel,
  limit: number,
  config: ServerConfig,
): Promise<number> {
  const { rows } = await db.query<DeliveryRow>(`SELECT ${CLAIMED} FROM claim_fresh_deliveries($1, $2, $3)`, [
    channel,
    limit,
    config.notifications.lockTimeoutSeconds,
  ]);
  const results = await Promise.allSettled(rows.map((delivery) => sendClaimed(db, delivery, config)));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return rows.length;
}

/** Sends a delivery this sender has claimed and records the outcome under its claim. */
async function sendClaimed(db: Database, delivery: DeliveryRow, config: ServerConfig): Promise<DeliveryOutcome> {
  const { lockTimeoutSeconds, retryDelays } = config.notifications;
  let receipt: string;
  let notice: Notice;
  try {
    const sent = await withDeadline(send(db, delivery, config), sendDeadlineMs(lockTimeoutSeconds));
    if (sent === null) {
      // The lead was deleted after it was queued: nothing to say about it. A reminder whose member left the
      // team goes to whoever is reminded now.
      await db.transaction(async (tx) => {
        const removed = await tx.query('DELETE FROM notification_deliveries WHERE id = $1 AND claim_id = $2', [
          delivery.id,
          delivery.claim_id,
        ]);
        if (removed.rowCount && delivery.purpose === 'reminder' && delivery.contact_id && delivery.remind_at) {
          await remindOthers(tx, delivery.contact_id, delivery.remind_at);
        }
      });
      return 'gone';
    }
    ({ receipt, notice } = sent);
  } catch (error) {
    return recordFailure(db, delivery, error, retryDelays);
  }
  const recordSent = async (tx: Queryable) =>
    (
      await tx.query(
        `UPDATE notification_deliveries
         SET status = 'sent', sent_at = now(), claimed_at = NULL, claim_id = NULL, next_attempt_at = NULL,
             last_error = NULL, updated_at = now()
         WHERE id = $1 AND claim_id = $2`,
        [delivery.id, delivery.claim_id],
      )
    ).rowCount !== 0;
  // A message's notice: another is queued if they wrote again while this one was being sent.
  const recorded =
    notice.purpose === 'message'
      ? await db.transaction((tx) =>
          laterMessagesNoticed(tx, delivery.contact_id as string, notice.message.inbound, () => recordSent(tx)),
        )
      : await recordSent(db);
  if (!recorded) return claimLost(delivery);
  logJson('info', {
    event: 'notification_sent',
    delivery: delivery.id,
    channel: delivery.channel,
    attempt: delivery.attempts,
    receipt,
  });
  return 'sent';
}

/** Another worker took the delivery over while this one was sending: its outcome stands. */
function claimLost(delivery: DeliveryRow): DeliveryOutcome {
  logJson('warn', { event: 'notification_claim_lost', delivery: delivery.id, channel: delivery.channel });
  return 'done';
}

/** The send, or a timeout error once `ms` have passed (what it was doing is abandoned). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('deadline'), { name: 'TimeoutError' })), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Someone else holds it, it is not due yet, or it is finished: make sure a job will look again if needed. */
async function notClaimed(db: Database, deliveryId: string, lockTimeoutSeconds: number): Promise<DeliveryOutcome> {
  const { rows } = await db.query<{ status: string; claimed_at: Date | null; next_attempt_at: Date | null }>(
    'SELECT status, claimed_at, next_attempt_at FROM notification_deliveries WHERE id = $1',
    [deliveryId],
  );
  const current = rows[0];
  if (!current) return 'gone';
  if (current.status === 'sending' && current.claimed_at) {
    // Another worker is sending it; if that worker dies, this job takes over after the timeout.
    const takeOver = new Date(new Date(current.claimed_at).getTime() + lockTimeoutSeconds * 1000 + 1000);
    await db.transaction((tx) => scheduleDeliveries(tx, [deliveryId], takeOver));
    return 'busy';
  }
  if (current.status === 'pending' && current.next_attempt_at) {
    await db.transaction((tx) => scheduleDeliveries(tx, [deliveryId], new Date(current.next_attempt_at as Date)));
    return 'not-due';
  }
  return 'done';
}

async function recordFailure(
  db: Database,
  delivery: DeliveryRow,
  error: unknown,
  retryDelays: readonly number[],
): Promise<DeliveryOutcome> {
  const { permanent, reason } = CHANNEL_MODULES[delivery.channel].classify(error);
  const delay = permanent ? undefined : retryDelays[delivery.attempts - 1];
  if (delay === undefined) {
    const recorded = await db.query(
      `UPDATE notification_deliveries
       SET status = 'failed', claimed_at = NULL, claim_id = NULL, next_attempt_at = NULL, last_error = $3,
           updated_at = now()
       WHERE id = $1 AND claim_id = $2`,
      [delivery.id, delivery.claim_id, reason],
    );
    if (recorded.rowCount === 0) return claimLost(delivery);
    logJson('error', {
      event: 'notification_failed',
      delivery: delivery.id,
      channel: delivery.channel,
      attempt: delivery.attempts,
      error: reason,
    });
    return 'failed';
  }
  const next = new Date(Date.now() + delay * 1000);
  const recorded = await db.transaction(async (tx) => {
    const updated = await tx.query(
      `UPDATE notification_deliveries
       SET status = 'pending', claimed_at = NULL, claim_id = NULL, next_attempt_at = $3, last_error = $4,
           updated_at = now()
       WHERE id = $1 AND claim_id = $2`,
      [delivery.id, delivery.claim_id, next.toISOString(), reason],
    );
    if (updated.rowCount !== 0) await scheduleDeliveries(tx, [delivery.id], next);
    return updated.rowCount !== 0;
  });
  if (!recorded) return claimLost(delivery);
  logJson('warn', {
    event: 'notification_retry',
    delivery: delivery.id,
    channel: delivery.channel,
    attempt: delivery.attempts,
    retry_in_s: delay,
    error: reason,
  });
  return 'retry';
}

/** What the delivery is about, or null when its lead is gone. */
async function noticeOf(db: Database, delivery: DeliveryRow, site: string): Promise<Notice | null> {
  switch (delivery.purpose) {
    case 'lead': {
      const lead = await leadMessage(db, delivery.lead_kind as NotifiedKind, delivery.lead_id as string, site);
      return lead && { purpose: 'lead', deliveryId: delivery.id, lead };
    }
    case 'test':
      return { purpose: 'test', deliveryId: delivery.id, panelUrl: `${site}/admin` };
    case 'summary':
      return {
        purpose: 'summary',
        deliveryId: delivery.id,
        summary: await dailySummary(db, delivery.summary_day as string, site),
      };
    case 'reminder': {
      const reminder = await reminderMessage(
        db,
        delivery.contact_id as string,
        delivery.recipient_id as string,
        delivery.remind_at as Date,
        site,
      );
      return reminder && { purpose: 'reminder', deliveryId: delivery.id, reminder };
    }
    case 'message': {
      const message = await inboundMessageNotice(
        db,
        delivery.contact_id as string,
        delivery.recipient_id as string,
        site,
      );
      return message && { purpose: 'message', deliveryId: delivery.id, message };
    }
  }
}

/** The channel's message for the notice, or a permanent failure when it does not carry that purpose. */
function render<S>(channel: ChannelModule<S>, notice: Notice): unknown {
  const renderer = channel.render[notice.purpose] as ((notice: Notice) => unknown) | undefined;
  if (!renderer) throw new PermanentFailure('Este canal no lleva este tipo de aviso.');
  return renderer(notice);
}

/** Sends through the delivery's channel; the receiver's receipt and what was said, or null when the lead is gone. */
async function send(
  db: Database,
  delivery: DeliveryRow,
  config: ServerConfig,
): Promise<{ receipt: string; notice: Notice } | null> {
  const notice = await noticeOf(db, delivery, publicSiteUrl(config));
  if (!notice) return null;
  const whatsapp = config.notifications.whatsapp;
  // Every notice by WhatsApp is a paid template: a lead's, and "Enviar prueba" pressed again and again. Over
  // the day's limit it fails at once with the reason: the lead is stored, in the panel and told by the other
  // channels. A retry of a failed send takes one again (a few too many, never too few).
  if (delivery.channel === 'whatsapp' && whatsapp && !(await takeNoticeAllowance(db, whatsapp.dailyLimit))) {
    throw new PermanentFailure(
      `Se alcanzó el límite diario de avisos por WhatsApp (${whatsapp.dailyLimit}); el prospecto está guardado en el panel.`,
    );
  }
  return { receipt: await sendThrough(delivery.channel, config, notice), notice };
}

async function sendThrough<C extends NotificationChannel>(channel: C, config: ServerConfig, notice: Notice) {
  const settings = channelSettings(channel, config.notifications);
  if (settings === null) throw new PermanentFailure('El canal está desactivado: faltan sus variables de entorno.');
  const implementation: ChannelModule<ChannelSettings<C>> = CHANNEL_MODULES[channel];
  return implementation.send(settings, render(implementation, notice));
}
