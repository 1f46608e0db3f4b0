import type { BulkAnswer, BulkChange } from '../../lib/admin/contact-bulk.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { applyChange } from './change.ts';

/** The history's `claimed` line of a member taking a contact: on "Tomar" and on an adviser's own capture. */
export async function recordClaim(tx: Queryable, contactId: string, actor: Actor): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, to_value) VALUES ($1, $2, $3, 'claimed', $3)`,
    [contactId, actor.id, actor.name],
  );
}

export type ClaimResult = 'claimed' | 'not_found' | { takenBy: string };

/**
 * "Tomar": the member takes an unassigned contact. One conditional UPDATE
 * (`WHERE assigned_to IS NULL`) decides between two advisers who press at
 * once: PostgreSQL makes the second wait for the first's row lock, then
 * re-reads the row, finds it assigned and updates nothing; that one is told who
 * took it. The history's line and the activity entry commit with the UPDATE.
 */
export async function claimContact(db: Database, id: string, actor: Actor): Promise<ClaimResult> {
  return db.transaction(async (tx) => {
    const taken = await tx.query<{ name: string }>(
      `UPDATE contacts SET assigned_to = $2, version = version + 1
       WHERE id = $1 AND assigned_to IS NULL
       RETURNING name`,
      [id, actor.id],
    );
    const name = taken.rows[0]?.name;
    if (name === undefined) {
      const found = await tx.query<{ assignee: string | null }>(
        `SELECT (SELECT coalesce(u.name, u.email) FROM users u WHERE u.id = c.assigned_to) AS assignee
         FROM contacts c WHERE c.id = $1`,
        [id],
      );
      const row = found.rows[0];
      return row ? { takenBy: row.assignee ?? '' } : 'not_found';
    }
    await recordClaim(tx, id, actor);
    await recordActivity(tx, {
      actor,
      kind: 'assignment',
      summary: `Tomó a ${name}`,
      details: { contact: id, assignedTo: actor.id, claimed: true },
    });
    return 'claimed';
  });
}

/**
 * A change from the list (administrators): each contact as if changed on its
 * own page (its history, its activity entries), all in one transaction: all
 * change or none does. Contacts erased meanwhile are counted as missing.
 * Rows are locked in id order, so two changes of overlapping selections
 * cannot deadlock.
 */
export async function bulkChange(db: Database, change: BulkChange, actor: Actor): Promise<BulkAnswer | 'no_member'> {
  try {
    return await db.transaction(async (tx) => {
      let changed = 0;
      let missing = 0;
      const { ids, ...rest } = change;
      for (const id of [...new Set(ids)].sort()) {
        const applied = await applyChange(tx, id, rest, actor, { quiet: true });
        // Thrown, not returned: the contacts changed before it roll back.
        if (applied === 'no_member') throw new NoMember();
        if (applied === 'not_found') missing += 1;
        else changed += 1;
      }
      return { changed, missing };
    });
  } catch (error) {
    if (error instanceof NoMember) return 'no_member';
    throw error;
  }
}

class NoMember extends Error {}
