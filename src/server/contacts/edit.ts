import { type ContactEdit, type Merge, mayChangeIdentity, type OtherContact } from '../../lib/admin/contact-work.ts';
import { CONTACT_STATES, type ContactDetail, type ContactState } from '../../lib/admin/contacts.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { LEADS_OF_CONTACT } from '../leads/kinds.ts';
import { scheduleReminder } from '../outbox/reminders.ts';
import { getContact } from './detail.ts';

export type EditResult = { contact: ContactDetail } | { collision: OtherContact } | 'not_found' | 'stale' | 'not_yours';

export type MergeResult = EditResult | 'from_not_found' | 'same';

/** The member who edits or merges: an adviser only contacts that are theirs or nobody's (mayChangeIdentity). */
type Member = Actor & { admin: boolean };

/** SQLSTATE unique_violation: another transaction gave the phone to a contact between our check and our UPDATE. */
const UNIQUE_VIOLATION = '23505';

class Collision extends Error {
  readonly other: OtherContact;
  constructor(other: OtherContact) {
    super('phone taken');
    this.other = other;
  }
}

/**
 * Corrects a contact's name, phone and e-mail on `edit.version`: one history
 * line per field changed (who, from, to), version + 1 and the activity entry,
 * in one transaction. A phone that is another contact's is a collision: that
 * contact's summary, so the panel can offer to merge the two. An adviser
 * corrects only contacts that are theirs or nobody's, as with a merge.
 */
export async function editContact(db: Database, id: string, edit: ContactEdit, actor: Member): Promise<EditResult> {
  const result = await withCollisions(db, id, edit.phone, (tx) => applyEdit(tx, id, edit, actor));
  if (typeof result !== 'string' || result !== 'done') return result as EditResult;
  const contact = await getContact(db, id);
  return contact ? { contact } : 'not_found';
}

/**
 * Merges contact `merge.from` into contact `id` (the one kept), then applies
 * the edit to it, in one transaction: every row of every table that names the
 * merged contact (requests, notes, history, calls, notifications, WhatsApp
 * messages, and any table added later with a key to contacts or a contact_id:
 * CONTACT_REFERENCES) moves to the kept one (two WhatsApp conversations fold
 * into one, by their trigger), which takes the older first lead, the later
 * activity, both kinds, the assignee when it had none, and the sooner next
 * contact; the merged contact is deleted; the merge is a line of the history
 * and an activity entry. An adviser merges only contacts that are theirs or
 * nobody's (mayChangeIdentity).
 */
export async function mergeContacts(db: Database, id: string, merge: Merge, actor: Member): Promise<MergeResult> {
  if (id === merge.from) return 'same';
  const result = await withCollisions(db, id, merge.phone, async (tx) => {
    // Their conversations first, as storing a message (inbound.ts) and recording its notice
    // (whatsapp/notify.ts laterMessagesNoticed) take them before a contact or a delivery: in the other order a
    // notice recorded during the merge was a deadlock, and the merge a 503.
    await tx.query(
      'SELECT 1 FROM whatsapp_conversations WHERE contact_id = ANY($1::uuid[]) ORDER BY contact_id FOR UPDATE',
      [[id, merge.from]],
    );
    const { rows } = await tx.query<{
      id: string;
      name: string;
      phone: string;
      version: number;
      assigned_to: string | null;
      state: ContactState;
      lost_reason: string | null;
    }>(
      `SELECT id, name, phone, version, assigned_to, state, lost_reason FROM contacts WHERE id = ANY($1::uuid[])
       ORDER BY id FOR UPDATE`,
      [[id, merge.from]],
    );
    const kept = rows.find((row) => row.id === id);
    const gone = rows.find((row) => row.id === merge.from);
    if (!kept) return 'not_found';
    if (!gone) return 'from_not_found';
    if (kept.version !== merge.version) return 'stale';
    if (!mayChangeIdentity(actor, [kept.assigned_to, gone.assigned_to])) return 'not_yours';

    // The same notification twice once the two are one person (a reminder of one moment to one member, or a
    // second waiting notice of their messages): the kept contact's stands for both, as the unique keys require.
    await tx.query(
      `DELETE FROM notification_deliveries g USING notification_deliveries k
       WHERE g.contact_id = $2 AND k.contact_id = $1 AND g.purpose = k.purpose
         AND g.channel = k.channel AND g.recipient_id = k.recipient_id
         AND ((g.purpose = 'reminder' AND g.remind_at = k.remind_at)
           OR (g.purpose = 'message' AND g.status IN ('pending', 'sending') AND k.status IN ('pending', 'sending')))`,
      [id, merge.from],
    );
    const references = await tx.query<{ table_name: string; column_name: string }>(CONTACT_REFERENCES);
    for (const { table_name: table, column_name: column } of references.rows) {
      await tx.query(`UPDATE ${quoted(table)} SET ${quoted(column)} = $1 WHERE ${quoted(column)} = $2`, [
        id,
        merge.from,
      ]);
    }
    // One automatic first reply per person, ever: the merged contact's (keyed by its id) becomes the kept one's,
    // so the kept contact's next lead finds it and sends none (queue_first_reply(), migration 0033).
    await tx.query(
      `UPDATE whatsapp_messages SET idempotency_key = 'first-reply:' || $1::uuid
       WHERE idempotency_key = 'first-reply:' || $2::uuid
         AND NOT EXISTS (SELECT 1 FROM whatsapp_messages WHERE idempotency_key = 'first-reply:' || $1::uuid)`,
      [id, merge.from],
    );
    // The person's state is the furthest of the two: a sale is never lost, and a lost contact whose other half is
    // still open is open again (as a new request reopens it: touch_contact()); the deal goes with the state.
    const state = mergedState(kept, gone);
    await tx.query(
      `UPDATE contacts k SET
         state = $3, lost_reason = $4,
         model_id = CASE WHEN $5 THEN coalesce(g.model_id, k.model_id) ELSE coalesce(k.model_id, g.model_id) END,
         estimated_value_mxn = CASE WHEN $5 THEN coalesce(g.estimated_value_mxn, k.estimated_value_mxn)
                                    ELSE coalesce(k.estimated_value_mxn, g.estimated_value_mxn) END,
         expected_close_on = CASE WHEN $5 THEN coalesce(g.expected_close_on, k.expected_close_on)
                                  ELSE coalesce(k.expected_close_on, g.expected_close_on) END,
         payment_customer = coalesce(k.payment_customer, g.payment_customer),
         is_buyer = k.is_buyer OR g.is_buyer,
         is_partner = k.is_partner OR g.is_partner,
         municipality = coalesce(k.municipality, g.municipality),
         assigned_to = coalesce(k.assigned_to, g.assigned_to),
         -- The sooner next contact of the two (with whether it was reminded): neither follow-up is dropped.
         next_contact_at = least(k.next_contact_at, g.next_contact_at),
         reminded_for = CASE WHEN k.next_contact_at IS NULL OR g.next_contact_at < k.next_contact_at
                             THEN g.reminded_for ELSE k.reminded_for END,
         attempts = k.attempts + g.attempts,
         first_touch = CASE WHEN g.created_at < k.created_at THEN g.first_touch ELSE k.first_touch END,
         last_touch = CASE WHEN g.last_touch <> '{}' AND (k.last_touch = '{}' OR g.last_activity_at > k.last_activity_at)
                           THEN g.last_touch ELSE k.last_touch END,
         created_at = least(k.created_at, g.created_at),
         last_activity_at = greatest(k.last_activity_at, g.last_activity_at, now()),
         first_moved_at = least(k.first_moved_at, g.first_moved_at),
         first_replied_at = least(k.first_replied_at, g.first_replied_at)
       FROM contacts g WHERE k.id = $1 AND g.id = $2`,
      [id, merge.from, state.state, state.lostReason, state.fromGone],
    );
    await tx.query('DELETE FROM contacts WHERE id = $1', [merge.from]);
    // The kept contact's reminder follows its next contact (perhaps the other's); the other's goes with it.
    const { rows: keptRows } = await tx.query<{ at: Date | null; closed: boolean }>(
      `SELECT next_contact_at AS at, state IN ('cerrado_ganado', 'cerrado_perdido') AS closed FROM contacts WHERE id = $1`,
      [id],
    );
    await scheduleReminder(tx, merge.from, null);
    const keptNext = keptRows[0];
    await scheduleReminder(tx, id, keptNext?.at && !keptNext.closed ? keptNext.at.toISOString() : null);
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
       VALUES ($1, $2, $3, 'merged', $4, $5, $6)`,
      [id, actor.id, actor.name, gone.name, gone.phone, merge.from],
    );
    const { from: _from, ...edit } = merge;
    const edited = await applyEdit(tx, id, { ...edit, version: kept.version }, actor, { quiet: true });
    if (edited !== 'done') return edited;
    await recordActivity(tx, {
      actor,
      kind: 'contacts_merged',
      summary: `Unió a ${gone.name} con ${merge.name}`,
      details: { contact: id, merged: merge.from },
    });
    return 'done';
  });
  if (result !== 'done') return result as MergeResult;
  const contact = await getContact(db, id);
  return contact ? { contact } : 'not_found';
}

/**
 * The state of two contacts made one (with the lost reason it requires, and
 * whether it is the absorbed one's, whose deal then goes with it): won if
 * either was; a lost one takes the other's open state; two open ones, the
 * further along the pipeline (CONTACT_STATES' order); two lost, the kept one's.
 */
export function mergedState(
  kept: { state: ContactState; lost_reason: string | null },
  gone: { state: ContactState; lost_reason: string | null },
): { state: ContactState; lostReason: string | null; fromGone: boolean } {
  const own = { state: kept.state, lostReason: kept.lost_reason, fromGone: false };
  const other = { state: gone.state, lostReason: gone.lost_reason, fromGone: true };
  if (kept.state === 'cerrado_ganado') return own;
  if (gone.state === 'cerrado_ganado') return other;
  if (gone.state === 'cerrado_perdido') return own;
  if (kept.state === 'cerrado_perdido') return other;
  return CONTACT_STATES.indexOf(gone.state) > CONTACT_STATES.indexOf(kept.state) ? other : own;
}

/**
 * Every column that names a contact: the foreign keys to contacts, and every
 * uuid column called contact_id, whose reference a trigger may keep instead
 * of a foreign key (notification_deliveries' since migration 0028, which
 * deletes a deleted contact's deliveries: a merge that left them behind lost
 * them, issue #38 item 10). A new table's contact_id moves with a merge
 * whichever way it is checked.
 */
const CONTACT_REFERENCES = `
  SELECT c.conrelid::regclass::text AS table_name, a.attname::text AS column_name
  FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
  WHERE c.contype = 'f' AND c.confrelid = 'contacts'::regclass AND cardinality(c.conkey) = 1
  UNION
  SELECT t.oid::regclass::text, a.attname::text
  FROM pg_class t JOIN pg_attribute a ON a.attrelid = t.oid
  WHERE t.relnamespace = 'public'::regnamespace AND t.relkind = 'r' AND NOT t.relispartition
    AND a.attname = 'contact_id' AND a.atttypid = 'uuid'::regtype AND NOT a.attisdropped
  ORDER BY 1, 2`;

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** Runs `work` in a transaction; a phone taken by another contact (found first, or by the unique key) is a collision. */
async function withCollisions<T>(
  db: Database,
  id: string,
  phone: string,
  work: (tx: Queryable) => Promise<T>,
): Promise<T | { collision: OtherContact }> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (error instanceof Collision) return { collision: error.other };
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const other = await otherWithPhone(db, id, phone);
      if (other) return { collision: other };
    }
    throw error;
  }
}

async function otherWithPhone(db: Queryable, id: string, phone: string): Promise<OtherContact | null> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    phone: string;
    email: string | null;
    state: ContactState;
    requests: string;
    assigned_to: string | null;
  }>(
    `SELECT c.id, c.name, c.phone, c.email, c.state, c.assigned_to, ${LEADS_OF_CONTACT} AS requests
     FROM contacts c WHERE c.phone = $1 AND c.id <> $2`,
    [phone, id],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        name: row.name,
        phone: row.phone,
        email: row.email,
        state: row.state,
        requests: Number(row.requests),
        assignedTo: row.assigned_to,
      }
    : null;
}

/** The edit inside `tx`; a collision is thrown (the transaction rolls back: a merge's moves too). */
async function applyEdit(
  tx: Queryable,
  id: string,
  edit: ContactEdit,
  actor: Member,
  options: { quiet?: boolean } = {},
): Promise<'done' | 'not_found' | 'stale' | 'not_yours'> {
  const { rows } = await tx.query<{
    name: string;
    phone: string;
    email: string | null;
    version: number;
    assigned_to: string | null;
  }>('SELECT name, phone, email, version, assigned_to FROM contacts WHERE id = $1 FOR UPDATE', [id]);
  const old = rows[0];
  if (!old) return 'not_found';
  if (!mayChangeIdentity(actor, [old.assigned_to])) return 'not_yours';
  if (old.version !== edit.version) return 'stale';
  if (edit.phone !== old.phone) {
    const other = await otherWithPhone(tx, id, edit.phone);
    if (other) throw new Collision(other);
    // WhatsApp's number for them was the one corrected away: what we send goes to the new phone (send.ts).
    await tx.query('UPDATE whatsapp_conversations SET wa_id = NULL WHERE contact_id = $1', [id]);
  }
  const changes = (['name', 'phone', 'email'] as const).filter(
    (field) => (old[field] ?? null) !== (edit[field] ?? null),
  );
  await tx.query('UPDATE contacts SET name = $2, phone = $3, email = $4, version = version + 1 WHERE id = $1', [
    id,
    edit.name,
    edit.phone,
    edit.email,
  ]);
  for (const field of changes) {
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, actor.id, actor.name, field, old[field], edit[field]],
    );
  }
  if (changes.length > 0 && !options.quiet) {
    await recordActivity(tx, {
      actor,
      kind: 'contact_edited',
      summary: `Corrigió ${changes.map((field) => FIELD_WORDS[field]).join(', ')} de ${edit.name}`,
      details: { contact: id, fields: changes },
    });
  }
  return 'done';
}

const FIELD_WORDS = { name: 'el nombre', phone: 'el teléfono', email: 'el correo' } as const;
