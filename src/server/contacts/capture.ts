import { originWords } from '../../data/lead-origins.ts';
import type { Capture, CaptureAnswer } from '../../lib/admin/contact-work.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database } from '../db/database.ts';
import { recordClaim } from './claim.ts';

/**
 * A lead typed in by a member ("Nuevo prospecto", decision 0037): the
 * contact of its phone, found or created by the database's touch_contact()
 * exactly as a form's lead is (an existing phone brings that contact up to
 * date, keeps its name with the typed one as an alias, and reopens it if it
 * was lost; never a second contact), then the
 * history's "Capturado por" line with where it came from, the note if any,
 * and the activity entry, in one transaction. A new contact typed in by an
 * adviser is theirs (unless the round-robin gave it to someone already).
 */
export async function captureLead(
  db: Database,
  capture: Capture,
  actor: Actor & { admin: boolean },
): Promise<CaptureAnswer> {
  return db.transaction(async (tx) => {
    const touched = await tx.query<{ id: string }>(`SELECT touch_contact($1, $2, $2, $3, NULL, true, '{}') AS id`, [
      capture.phone,
      capture.name,
      capture.email,
    ]);
    const id = touched.rows[0]?.id;
    if (!id) throw new Error('touch_contact returned no contact');
    // Created by this transaction: its created_at is this transaction's now().
    const { rows } = await tx.query<{ created: boolean }>(
      'SELECT created_at = now() AS created FROM contacts WHERE id = $1',
      [id],
    );
    const created = rows[0]?.created === true;
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value) VALUES ($1, $2, $3, 'captured', $4)`,
      [id, actor.id, actor.name, capture.origin],
    );
    if (capture.note) {
      await tx.query('INSERT INTO contact_notes (contact_id, author_id, author_name, body) VALUES ($1, $2, $3, $4)', [
        id,
        actor.id,
        actor.name,
        capture.note,
      ]);
    }
    if (created && !actor.admin) {
      const mine = await tx.query(
        'UPDATE contacts SET assigned_to = $2, version = version + 1 WHERE id = $1 AND assigned_to IS NULL',
        [id, actor.id],
      );
      if (mine.rowCount) await recordClaim(tx, id, actor);
    }
    await recordActivity(tx, {
      actor,
      kind: 'contact_captured',
      summary: `${created ? 'Capturó a' : 'Registró otro contacto de'} ${capture.name} (${originWords(capture.origin)})`,
      details: { contact: id, origin: capture.origin, created },
    });
    return { id, created };
  });
}
