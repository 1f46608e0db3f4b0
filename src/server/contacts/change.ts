import {
  type ContactChange,
  type ContactDetail,
  type ContactState,
  isClosed,
  type LostReason,
  mayDeleteNote,
  nextContactInstant,
  STATE_LABELS,
} from '../../lib/admin/contacts.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
import type { Database, Queryable } from '../db/database.ts';
import { scheduleReminder } from '../outbox/reminders.ts';
import { getContact } from './detail.ts';
import { isoInstant, NEXT_CONTACT } from './next-contact.ts';

export type ChangeResult = { contact: ContactDetail } | 'not_found' | 'stale' | 'no_member';

/** A contact as a change finds it, locked (FOR UPDATE) until the change commits. */
export interface LockedContact {
  name: string;
  state: ContactState;
  lost_reason: LostReason | null;
  /** The next contact, ISO (UTC), or null. */
  next: string | null;
  version: number;
  assigned_to: string | null;
  assigned_name: string | null;
  model_id: string | null;
  estimated_value_mxn: number | null;
  /** YYYY-MM-DD or null. */
  expected_close_on: string | null;
}

/** Reads and locks the contact a change starts from; null when there is none. */
export async function lockContact(tx: Queryable, id: string): Promise<LockedContact | null> {
  const { rows } = await tx.query<Omit<LockedContact, 'next'> & { next: Date | null }>(
    `SELECT c.name, c.state, c.lost_reason, ${NEXT_CONTACT} AS next, c.version, c.assigned_to,
            c.model_id, c.estimated_value_mxn, to_char(c.expected_close_on, 'YYYY-MM-DD') AS expected_close_on,
            (SELECT coalesce(u.name, u.email) FROM users u WHERE u.id = c.assigned_to) AS assigned_name
     FROM contacts c WHERE c.id = $1 FOR UPDATE`,
    [id],
  );
  const row = rows[0];
  return row ? { ...row, next: isoInstant(row.next) } : null;
}

/** The follow-up a change leaves: what the contact's row holds afterwards. */
export interface FollowUpValues {
  state: ContactState;
  lostReason: LostReason | null;
  next: string | null;
  assignedTo: string | null;
  assignedName: string | null;
}

/**
 * Writes the follow-up on a locked contact (version + 1), one history entry
 * per field that changed, with who and when, and moves its reminder (a new
 * moment reschedules it, none or a closed contact cancels it), all with `tx`.
 * A closed contact has no next contact: its reminder is off, and a date kept
 * would read "(vencido)" on its card and come back stale if a new request
 * reopened it. Returns the next contact written.
 */
export async function writeFollowUp(
  tx: Queryable,
  id: string,
  old: LockedContact,
  values: FollowUpValues,
  actor: Actor,
): Promise<string | null> {
  const { state, lostReason, assignedTo } = values;
  const next = isClosed(state) ? null : values.next;
  const oldState = old.state === 'cerrado_perdido' ? `${old.state}:${old.lost_reason}` : old.state;
  const newState = state === 'cerrado_perdido' ? `${state}:${lostReason}` : state;
  // A move of the state or of the next contact is work done with the person: "Última actividad" says so.
  const worked = oldState !== newState || next !== old.next;
  // The row and its history lines in one statement (one round trip: the change is on every adviser's path).
  const lines: { kind: string; from_value: string | null; to_value: string | null }[] = [];
  if (oldState !== newState) lines.push({ kind: 'state', from_value: oldState, to_value: newState });
  if (next !== old.next) lines.push({ kind: 'next_contact', from_value: old.next, to_value: next });
  if (assignedTo !== old.assigned_to) {
    lines.push({
      kind: 'assigned',
      from_value: old.assigned_to ? old.assigned_name : null,
      to_value: assignedTo ? values.assignedName : null,
    });
  }
  await tx.query(
    `WITH updated AS (
       UPDATE contacts SET state = $2, lost_reason = $3, next_contact_at = $4::timestamptz, assigned_to = $5,
         version = version + 1,
         first_moved_at = CASE WHEN first_moved_at IS NULL AND $2 <> 'nuevo' THEN now() ELSE first_moved_at END,
         last_activity_at = CASE WHEN $6 THEN now() ELSE last_activity_at END
       WHERE id = $1
     )
     INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value)
     SELECT $1, $7, $8, line.kind, line.from_value, line.to_value
     FROM ROWS FROM (jsonb_to_recordset($9::jsonb) AS (kind text, from_value text, to_value text))
          WITH ORDINALITY AS line (kind, from_value, to_value, n)
     ORDER BY line.n`,
    [id, state, lostReason, next, assignedTo, worked, actor.id, actor.name, JSON.stringify(lines)],
  );
  if (next !== old.next || state !== old.state) await scheduleReminder(tx, id, next);
  return next;
}

/** One line of the contact's history. */
export async function recordEvent(
  tx: Queryable,
  id: string,
  actor: Actor,
  kind: string,
  from: string | null,
  to: string | null,
  detail: string | null = null,
): Promise<void> {
  await tx.query(
    `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, to_value, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, actor.id, actor.name, kind, from, to, detail],
  );
}

/**
 * Applies a change made on `change.version` of the contact: 'stale' when
 * someone changed it since (nothing is written), otherwise the new state,
 * reason and next contact (writeFollowUp), and the activity log's entries
 * for a state or an assignment given, all in one transaction.
 */
export async function changeContact(
  db: Database,
  id: string,
  change: ContactChange,
  actor: Actor,
): Promise<ChangeResult> {
  const result = await db.transaction((tx) => applyChange(tx, id, change, actor));
  if (result !== 'done') return result;
  const contact = await getContact(db, id);
  return contact ? { contact } : 'not_found';
}

/** A change as `applyChange` takes it: without a version, it applies to whatever is stored (a change from the list). */
export type StoredChange = Omit<ContactChange, 'version'> & { version?: number };

/**
 * One contact's change inside the caller's transaction `tx` (the row is
 * locked FOR UPDATE): the history's lines, its reminder and the activity
 * log's entries go with it. A state given but equal to the stored one writes
 * no activity entry; `quiet`: nor does an assignment (a change from the list,
 * where most may already be so).
 */
export async function applyChange(
  tx: Queryable,
  id: string,
  change: StoredChange,
  actor: Actor,
  options: { quiet?: boolean } = {},
): Promise<'done' | 'not_found' | 'stale' | 'no_member'> {
  const old = await lockContact(tx, id);
  if (!old) return 'not_found';
  if (change.version !== undefined && old.version !== change.version) return 'stale';

  const state = change.state ?? old.state;
  const lostReason = state === 'cerrado_perdido' ? (change.lostReason ?? old.lost_reason) : null;
  if (state === 'cerrado_perdido' && !lostReason) throw new Error('a lost contact needs its reason');
  const next =
    change.nextContactAt === undefined
      ? old.next
      : change.nextContactAt === null
        ? null
        : nextContactInstant(change.nextContactAt);
  const assignedTo = change.assignedTo === undefined ? old.assigned_to : change.assignedTo;
  let assignedName = old.assigned_name;
  if (assignedTo !== old.assigned_to && assignedTo !== null) {
    const member = await tx.query<{ name: string }>(
      `SELECT coalesce(u.name, u.email) AS name FROM users u JOIN user_roles r ON r.user_id = u.id
       WHERE u.id = $1 AND u.deactivated_at IS NULL`,
      [assignedTo],
    );
    if (!member.rows[0]) return 'no_member';
    assignedName = member.rows[0].name;
  }
  await writeFollowUp(tx, id, old, { state, lostReason, next, assignedTo, assignedName }, actor);
  await writeDeal(tx, id, old, change, actor);
  const sameState = state === old.state && lostReason === old.lost_reason;
  // The follow-up form sends its state with every save: only a change is one.
  if (change.state && !sameState) {
    await recordActivity(tx, {
      actor,
      kind: 'state_change',
      summary: `Cambió el estado de ${old.name} a «${STATE_LABELS[change.state]}»`,
      details: { contact: id, state: change.state },
    });
  }
  if (change.assignedTo !== undefined && !(options.quiet && assignedTo === old.assigned_to)) {
    await recordActivity(tx, {
      actor,
      kind: 'assignment',
      summary: assignedTo ? `Asignó a ${old.name} a ${assignedName ?? ''}` : `Dejó sin asignar a ${old.name}`,
      details: { contact: id, assignedTo: change.assignedTo },
    });
  }
  return 'done';
}

/**
 * The deal's fields a change gives (the pipeline's model of interest, value
 * and expected close day), on the locked contact, one history line each that
 * changed. The model's id is checked against the catalogue by the endpoint.
 */
async function writeDeal(tx: Queryable, id: string, old: LockedContact, change: StoredChange, actor: Actor) {
  const model = change.modelId === undefined ? old.model_id : change.modelId;
  const value = change.estimatedValue === undefined ? old.estimated_value_mxn : change.estimatedValue;
  const close = change.expectedCloseOn === undefined ? old.expected_close_on : change.expectedCloseOn;
  const changed: [kind: string, from: string | number | null, to: string | number | null][] = [
    ['model', old.model_id, model],
    ['estimated_value', old.estimated_value_mxn, value],
    ['expected_close', old.expected_close_on, close],
  ];
  const lines = changed.filter(([, from, to]) => from !== to);
  if (lines.length === 0) return;
  await tx.query(
    'UPDATE contacts SET model_id = $2, estimated_value_mxn = $3, expected_close_on = $4::date WHERE id = $1',
    [id, model, value, close],
  );
  for (const [kind, from, to] of lines) {
    await recordEvent(tx, id, actor, kind, from === null ? null : String(from), to === null ? null : String(to));
  }
}

/** SQLSTATE foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Adds a note and moves the contact's last activity to now; null when there is no such contact, including one erased
 * while the note was being written: the INSERT saw the contact, but the
 * erasure (which holds it FOR UPDATE) committed first, so the note's
 * foreign key no longer holds. That is a 404, not a database fault.
 */
export async function addNote(db: Database, contactId: string, body: string, actor: Actor): Promise<string | null> {
  try {
    // One statement, so one transaction: the note and the contact's "Última actividad".
    const { rows } = await db.query<{ id: string }>(
      `WITH contact AS (UPDATE contacts SET last_activity_at = now() WHERE id = $1 RETURNING id)
       INSERT INTO contact_notes (contact_id, author_id, author_name, body)
       SELECT id, $2, $3, $4 FROM contact
       RETURNING id`,
      [contactId, actor.id, actor.name, body],
    );
    return rows[0]?.id ?? null;
  } catch (error) {
    if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return null;
    throw error;
  }
}

/** What became of a note's deletion: done, no such note (404), or someone else's note for an adviser (403). */
export type NoteDeletion = 'deleted' | 'not_found' | 'not_yours';

/**
 * Deletes a note (it stays in the table, marked) if `actor` may
 * (`mayDeleteNote`: an adviser their own, an administrator any), and records
 * it in the contact's history and in the activity log, in one transaction
 * (decision 0028). The activity entry names the contact, not the note's text:
 * the erasure of a person rewrites names in the log (person.ts), not texts.
 * The contact is locked first (FOR KEY SHARE): an erasure locks the contact
 * and then deletes its notes, so taking the note first would deadlock with
 * it; now one waits for the other.
 */
export async function deleteNote(
  db: Database,
  contactId: string,
  noteId: string,
  actor: Actor & { admin: boolean },
): Promise<NoteDeletion> {
  return db.transaction(async (tx) => {
    const contact = await tx.query<{ name: string }>('SELECT name FROM contacts WHERE id = $1 FOR KEY SHARE', [
      contactId,
    ]);
    const name = contact.rows[0]?.name;
    if (name === undefined) return 'not_found';
    const found = await tx.query<{ author_id: string | null }>(
      `SELECT author_id FROM contact_notes WHERE id = $2 AND contact_id = $1 AND deleted_at IS NULL FOR UPDATE`,
      [contactId, noteId],
    );
    const note = found.rows[0];
    if (!note) return 'not_found';
    if (!mayDeleteNote(actor, { authorId: note.author_id })) return 'not_yours';
    const { rows } = await tx.query<{ body: string }>(
      'UPDATE contact_notes SET deleted_at = now(), deleted_by = $2 WHERE id = $1 RETURNING body',
      [noteId, actor.name],
    );
    await tx.query(
      `INSERT INTO contact_events (contact_id, actor_id, actor_name, kind, from_value, detail)
       VALUES ($1, $2, $3, 'note_deleted', $4, $5)`,
      [contactId, actor.id, actor.name, (rows[0]?.body ?? '').slice(0, 200), noteId],
    );
    await recordActivity(tx, {
      actor,
      kind: 'note_deleted',
      summary: `Eliminó una nota de ${name}`,
      details: { contact: contactId, note: noteId, author: note.author_id },
    });
    return 'deleted';
  });
}
