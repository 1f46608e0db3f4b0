import { PRIVACY_NOTICE_VERSION } from '../../data/legal.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';
import { LAST_ANSWER_IS_NO } from '../leads/consent.ts';

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
 * Recorded whether or not they consent now: someone who never ticked the box
 * may oppose ahead of a form that would. 'unchanged' when their last answer is
 * already a no (nothing written).
 */
export async function recordOpposition(
  db: Database,
  contactId: string,
  actor: Actor,
): Promise<'recorded' | 'unchanged' | 'not_found'> {
  return db.transaction(async (tx) => {
    const found = await tx.query<{ name: string; opposed: boolean }>(
      `SELECT c.name, ${LAST_ANSWER_IS_NO} AS opposed FROM contacts c WHERE c.id = $1 FOR UPDATE`,
      [contactId],
    );
    const contact = found.rows[0];
    if (!contact) return 'not_found';
    if (contact.opposed) return 'unchanged';
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
      // `contact`, as every entry about a contact: erasing the person scrubs it (contacts/person.ts).
      details: { contact: contactId },
    });
    return 'recorded';
  });
}
