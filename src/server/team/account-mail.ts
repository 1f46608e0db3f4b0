import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { sessionSecret } from '../auth/secret.ts';
import { getConfig, publicSiteUrl, type ServerConfig } from '../config.ts';
import { type Queryable, withDatabase } from '../db/database.ts';
import type { JobSource } from '../jobs/pool.ts';
import { logJson } from '../log.ts';
import { type EmailContent, sendEmail } from '../notifications/channels/email.ts';
import { linkEmail } from '../notifications/render.ts';

/**
 * The e-mails of a member's account (a password-reset link, an invitation).
 * They never hold up the request that asks for them, and are never lost:
 * before the first try, the e-mail is queued (a graphile-worker job, in the
 * database) to run after NOTIFY_LOCK_TIMEOUT_SECONDS, as every send a worker
 * claimed is taken over; the first try is made after the answer, and removes
 * that job once the mail server took the e-mail, or brings it forward when it
 * failed (then retried with growing pauses while its link is valid). A
 * process that dies in between (a crash, a function past its time limit)
 * leaves the job, and another sends it. The job carries the link sealed
 * (AES-256-GCM under a key derived from JWT_SECRET): the database never holds
 * a usable link, as for the tokens themselves.
 */

/** The graphile-worker task that retries an account e-mail. */
export const ACCOUNT_EMAIL_TASK = 'send_account_email';
/**
 * Tries of a queued account e-mail: graphile-worker waits e^n seconds between them, about 3 days in all, as
 * long as an invitation's link works (a reset's, 30 minutes, is dropped once expired: runAccountEmail). Six
 * tries were 4 minutes: a mail server down for longer lost the e-mail for good, nobody told.
 */
const ATTEMPTS = 13;

export interface AccountEmail {
  to: string;
  subject: string;
  text: string;
  link: string;
  /** When the link stops working: a retry after that is dropped. */
  expiresAt: string;
}

/** The e-mail as sent: its Message-ID names our site and a random id, never the link's secret. */
function content(mail: AccountEmail, config: ServerConfig): EmailContent {
  const host = new URL(publicSiteUrl(config)).hostname;
  return linkEmail(mail.subject, mail.text, mail.link, `<${randomUUID()}.cuenta@${host}>`);
}

/** What of the request's platform an e-mail sent after the answer needs: Netlify's `waitUntil`, if any. */
export interface AfterAnswer {
  waitUntil?: (promise: Promise<unknown>) => void;
}

/**
 * Queues `mail` (taken over after the lock timeout), then sends it after the
 * answer: through Netlify's `waitUntil` when there is one, in the background
 * on the local server. Only the queueing is awaited; the first try never
 * throws and is never awaited by the request.
 */
export async function sendAccountEmail(db: Queryable, context: AfterAnswer, mail: AccountEmail): Promise<void> {
  const config = getConfig();
  if (!config.notifications.email) return;
  const key = `account-email:${randomUUID()}`;
  await queueAccountEmail(db, mail, { key, delaySeconds: config.notifications.lockTimeoutSeconds });
  const work = firstTry(mail, key)
    .catch((error: unknown) =>
      logJson('error', { event: 'account_email_left_queued', error: (error as Error).message }),
    )
    .finally(() => inFlight.delete(work));
  inFlight.add(work);
  context.waitUntil?.(work);
}

/** First tries still running in this process (the local server waits for them when it stops). */
const inFlight = new Set<Promise<void>>();

/** Waits for the account e-mails of this process still on their first try: sent, or queued for a retry. */
export async function settleAccountEmails(): Promise<void> {
  await Promise.allSettled([...inFlight]);
}

async function firstTry(mail: AccountEmail, key: string): Promise<void> {
  const config = getConfig();
  const email = config.notifications.email;
  if (!email) return;
  let sent = false;
  try {
    await sendEmail(email, content(mail, config), [mail.to]);
    sent = true;
  } catch (error) {
    logJson('warn', { event: 'account_email_queued', error: (error as Error).message });
  }
  // Sent: its job goes (a failure here only sends it twice). Not sent: its job runs now, and retries.
  await withDatabase(async (db) => {
    if (sent) await db.query('SELECT graphile_worker.remove_job($1)', [key]);
    else await queueAccountEmail(db, mail, { key });
  }, config);
}

/**
 * Queues `mail` for the worker (the local server's, or Netlify's minute
 * drain), to run now or in `delaySeconds`; the same `key` again replaces it.
 */
export async function queueAccountEmail(
  db: Queryable,
  mail: AccountEmail,
  { key = null, delaySeconds = 0 }: { key?: string | null; delaySeconds?: number } = {},
): Promise<void> {
  await db.query(
    `SELECT graphile_worker.add_job($1, $2::json, run_at => now() + make_interval(secs => $4), max_attempts => $3,
       job_key => $5, job_key_mode => 'replace')`,
    [ACCOUNT_EMAIL_TASK, JSON.stringify({ sealed: seal(mail) }), ATTEMPTS, delaySeconds, key],
  );
}

/**
 * The worker's task: sends a queued account e-mail. Throws when the SMTP
 * server refuses or does not answer, so graphile-worker tries again later;
 * a link that expired meanwhile, or a payload that is not ours, is dropped.
 */
export async function runAccountEmail(payload: unknown, config: ServerConfig): Promise<void> {
  const sealed = (payload as { sealed?: unknown } | null)?.sealed;
  const mail = typeof sealed === 'string' ? unseal(sealed) : null;
  if (!mail) {
    logJson('error', { event: 'account_email_dropped', reason: 'unreadable' });
    return;
  }
  if (Date.parse(mail.expiresAt) <= Date.now()) {
    logJson('warn', { event: 'account_email_dropped', reason: 'expired' });
    return;
  }
  const email = config.notifications.email;
  if (!email) return;
  await sendEmail(email, content(mail, config), [mail.to]);
}

const key = () => Buffer.from(hkdfSync('sha256', sessionSecret(), '', 'ceiba/account-email/v1', 32));

function seal(mail: AccountEmail): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(mail), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(sealed: string): AccountEmail | null {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as AccountEmail;
  } catch {
    return null;
  }
}

/** What account mail hands the job runner (src/server/tasks.ts): its task, on the e-mail channel's runner (same SMTP server). */
export const accountMailJobs: JobSource = {
  joins: (config) => [
    { channel: 'email', tasks: { [ACCOUNT_EMAIL_TASK]: (payload: unknown) => runAccountEmail(payload, config) } },
  ],
};
