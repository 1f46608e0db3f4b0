import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { WHATSAPP_CONSENT } from '../../data/whatsapp-consent.ts';
import { publicSiteUrl } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { CONTACT_MARKETING_CONSENT } from '../leads/consent.ts';
import { queueAutomaticAnswer } from './outbound.ts';

/**
 * Consent asked on WhatsApp (issue #43, decision 0083). A person who writes
 * from a Click-to-WhatsApp ad ticked no form's box, so nothing about them
 * could ever be told to the platforms. They are asked, once per contact, the
 * forms' question «Quiero recibir novedades y promociones» as two buttons
 * (src/data/whatsapp-consent.ts), an automatic answer inside the window the
 * message opened (free: no template). Their press is a line of their history
 * (`marketing_consent`, `si` or `no`, with the privacy notice's version),
 * which is what CONTACT_MARKETING_CONSENT reads; a yes sends again what was
 * kept unsent for lack of it.
 */

/** The key of the question's message: one per contact, ever. */
const ASK_KEY = 'consentimiento:';

/** The question as WhatsApp's interactive reply-buttons message. */
export function consentQuestion(noticeUrl: string): { body: string; interactive: object } {
  const body = WHATSAPP_CONSENT.body.replace('{aviso}', noticeUrl);
  return {
    body,
    interactive: {
      type: 'button',
      body: { text: body },
      action: {
        buttons: [WHATSAPP_CONSENT.yes, WHATSAPP_CONSENT.no].map(({ id, title }) => ({
          type: 'reply',
          reply: { id, title },
        })),
      },
    },
  };
}

/**
 * Asks `contactId` the question, in the transaction that stored their
 * message from an ad: not when they consented already (a form's box), have
 * answered it, or asked for no automatic messages; never twice (its key).
 */
export async function askConsent(tx: Queryable, contactId: string): Promise<void> {
  const { rows } = await tx.query<{ ask: boolean }>(
    `SELECT NOT ${CONTACT_MARKETING_CONSENT}
       AND NOT EXISTS (SELECT 1 FROM contact_events e WHERE e.contact_id = c.id AND e.kind = 'marketing_consent')
       AND NOT EXISTS (SELECT 1 FROM whatsapp_conversations w WHERE w.contact_id = c.id AND w.opted_out_at IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM whatsapp_messages m WHERE m.idempotency_key = $2 || c.id) AS ask
     FROM contacts c WHERE c.id = $1`,
    [contactId, ASK_KEY],
  );
  if (!rows[0]?.ask) return;
  const question = consentQuestion(`${publicSiteUrl()}/aviso-de-privacidad`);
  await queueAutomaticAnswer(tx, contactId, `${ASK_KEY}${contactId}`, { kind: 'interactive', ...question });
}

/** Their answer to the question, if the stored message (its raw JSON) is the press of one of its buttons. */
export function consentAnswer(raw: unknown): 'si' | 'no' | null {
  const interactive = (raw as { interactive?: { type?: unknown; button_reply?: { id?: unknown } } } | null)
    ?.interactive;
  if (interactive?.type !== 'button_reply') return null;
  const id = interactive.button_reply?.id;
  return id === WHATSAPP_CONSENT.yes.id ? 'si' : id === WHATSAPP_CONSENT.no.id ? 'no' : null;
}

/**
 * Their press, in the transaction that stored it (once: a replay stores no
 * message): a line of their history; a yes puts back in the queue what was
 * kept unsent for lack of consent, within the 7 days the platforms take.
 */
export async function recordConsent(tx: Queryable, contactId: string, answer: 'si' | 'no'): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, to_value, detail) VALUES ($1, 'marketing_consent', $2, $3)`,
    [contactId, answer, `WhatsApp · aviso de privacidad ${PRIVACY_NOTICE_VERSION}`],
  );
  if (answer === 'si') {
    await tx.query(
      `UPDATE ad_conversions SET status = 'pendiente', next_attempt_at = now(), last_error = NULL
       WHERE contact_id = $1 AND status = 'sin_consentimiento' AND occurred_at > now() - interval '7 days'`,
      [contactId],
    );
  }
}
