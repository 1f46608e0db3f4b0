import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';
import { CONTACT_MARKETING_CONSENT } from '../leads/consent.ts';

/** The history's detail of a withdrawal recorded by the team (the timeline names it apart from a WhatsApp press). */
export const OPPOSITION_DETAIL = 'Panel';

/**
 * The person's opposition to promotions and to the ad platforms (their right
 * of opposition, asked by e-mail, by phone or in person), recorded by an
 * administrator: a `marketing_consent` line `no` of their history with who
 * recorded it, which CONTACT_MARKETING_CONSENT reads before any form's box,
 * so nothing of theirs goes to Meta or Google from then on; what waited to
 * go is kept unsent (`sin_consentimiento`), and the activity log says who did
 * it. Only the person can consent again (the WhatsApp question's "Sí").
 * 'unchanged' when they had no consent to withdraw (nothing written).
 */
export async function recordOpposition(
  db: Database,
  contactId: string,
  actor: Actor,
): Promise<'recorded' | 'unchanged' | 'not_found'> {
  return db.transaction(async (tx) => {
    const found = await tx.query<{ name: string; consent: boolean }>(
      `SELECT c.name, ${CONTACT_MARKETING_CONSENT} AS consent FROM contacts c WHERE c.id = $1 FOR UPDATE`,
      [contactId],
    );
    const contact = found.rows[0];
    if (!contact) return 'not_found';
    if (!contact.consent) return 'unchanged';
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value, detail)
       VALUES ($1, $2, $3, 'marketing_consent', 'no', $4)`,
      [contactId, actor.id, actor.name, `${OPPOSITION_DETAIL} · aviso de privacidad ${PRIVACY_NOTICE_VERSION}`],
    );
    await tx.query(
      `UPDATE ad_conversions SET status = 'sin_consentimiento' WHERE contact_id = $1 AND status = 'pendiente'`,
      [contactId],
    );
    await recordActivity(tx, {
      actor,
      kind: 'marketing_opposition',
      summary: `Oposición a promociones y anuncios de ${contact.name}`,
      details: { contactId },
    });
    return 'recorded';
  });
}
