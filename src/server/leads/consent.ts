import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { OUTBOX_MAX_AGE_MS } from '../../lib/client/outbox.ts';
import { LEAD_TABLES } from './kinds.ts';

/** How far ahead of the server's clock a visitor's device may run and still be believed. */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

export interface ClaimedConsent {
  /** The privacy notice's version the visitor saw (checked by the form's schema: a published version). */
  privacy_version?: string | undefined;
  /** When the visitor pressed send, by their device's clock (ISO 8601). */
  privacy_accepted_at?: string | undefined;
}

/**
 * The version and the time a lead records (issue #25): those of the press
 * of the send button, which may be days before delivery when the request
 * waited in the visitor's outbox. The device's clock is believed only where
 * a request of ours can come from: from OUTBOX_MAX_AGE_MS (plus the skew)
 * ago up to now; a time a little ahead (within CONSENT_CLOCK_SKEW_MS) is
 * recorded as now, and one outside those bounds is not believed at all:
 * the server's time of receipt is recorded, as for a request without one.
 */
export function consentRecord(claimed: ClaimedConsent, now = new Date()): { version: string; acceptedAt: string } {
  const version = claimed.privacy_version ?? PRIVACY_NOTICE_VERSION;
  const at = claimed.privacy_accepted_at === undefined ? Number.NaN : Date.parse(claimed.privacy_accepted_at);
  const received = now.getTime();
  const believable =
    at >= received - OUTBOX_MAX_AGE_MS - CONSENT_CLOCK_SKEW_MS && at <= received + CONSENT_CLOCK_SKEW_MS;
  return { version, acceptedAt: new Date(believable ? Math.min(at, received) : received).toISOString() };
}

/**
 * Whether the contact `c` lets us tell the ad platforms about them (issue
 * #43, decisions 0072 and 0083), as SQL: their last answer to the consent
 * question on WhatsApp (a line `marketing_consent` of their history), which
 * only the phone's owner can give, when there is one; otherwise a lead of
 * theirs with the box «Quiero recibir novedades y promociones» ticked (a form
 * anyone may send with their number). Withdrawn by asking for no more
 * messages on WhatsApp ("BAJA"): from then on nothing of theirs is sent.
 */
/** Whether the contact `c`'s last answer to the consent question (WhatsApp, or recorded by the team) is a no. */
export const LAST_ANSWER_IS_NO = `coalesce((SELECT e.to_value = 'no' FROM contact_events e
  WHERE e.contact_id = c.id AND e.kind = 'marketing_consent' ORDER BY e.created_at DESC, e.id DESC LIMIT 1), false)`;

export const CONTACT_MARKETING_CONSENT = `(coalesce((SELECT e.to_value = 'si' FROM contact_events e
  WHERE e.contact_id = c.id AND e.kind = 'marketing_consent' ORDER BY e.created_at DESC, e.id DESC LIMIT 1),
  ${LEAD_TABLES.map(
    (table) => `EXISTS (SELECT 1 FROM ${table} l WHERE l.contact_id = c.id AND l.marketing_consent)`,
  ).join(' OR ')})
  AND NOT EXISTS (SELECT 1 FROM whatsapp_conversations w WHERE w.contact_id = c.id AND w.opted_out_at IS NOT NULL))`;
