import { counted } from '../../lib/admin/contacts.ts';
/**
 * Rights of access and cancellation (ARCO, issue #14): everything stored
 * about one person, and erasing it. A person is a contact: its phone joins
 * every request and call of theirs.
 */
import type { Database, Queryable } from '../db/database.ts';
import { everyLeadTable, LEAD_TABLES } from '../leads/kinds.ts';
import { type Actor, recordActivity } from '../team/activity.ts';

/** Every table that holds a person's rows, and how they are found: by the contact, or also by the phone. */
const SOURCES = [
  { table: 'contacts', key: 'id', byPhone: false },
  ...LEAD_TABLES.map((table) => ({ table, key: 'contact_id', byPhone: true })),
  { table: 'voice_calls', key: 'contact_id', byPhone: true },
  { table: 'contact_notes', key: 'contact_id', byPhone: false },
  { table: 'contact_events', key: 'contact_id', byPhone: false },
  { table: 'notification_deliveries', key: 'contact_id', byPhone: false },
] as const;

export type PersonData = Record<(typeof SOURCES)[number]['table'], Record<string, unknown>[]>;

/** Columns that are ours, not the person's: left out of what they receive. */
const INTERNAL = new Set(['idempotency_key', 'idempotency_fingerprint', 'search_text', 'claim_id', 'version']);

/** Everything stored about the contact's person, table by table; null when there is no such contact. */
export async function personData(db: Queryable, contactId: string): Promise<PersonData | null> {
  const { rows } = await db.query<{ phone: string }>('SELECT phone FROM contacts WHERE id = $1', [contactId]);
  const phone = rows[0]?.phone;
  if (!phone) return null;
  const tables = await Promise.all(
    SOURCES.map(async ({ table, key, byPhone }) => {
      const found = await db.query<Record<string, unknown>>(
        `SELECT * FROM ${table} WHERE ${key} = $1 ${byPhone ? 'OR phone = $2' : ''} ORDER BY 1`,
        byPhone ? [contactId, phone] : [contactId],
      );
      return [
        table,
        found.rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !INTERNAL.has(key)))),
      ] as const;
    }),
  );
  return Object.fromEntries(tables) as PersonData;
}

/** The person's data as CSV rows: table, row id, field, value (one line per stored value). */
export function personCsvRows(data: PersonData): string[][] {
  const lines: string[][] = [];
  for (const [table, rows] of Object.entries(data)) {
    for (const row of rows) {
      const id = String(row.id ?? '');
      for (const [field, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text =
          value instanceof Date
            ? value.toISOString()
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
        lines.push([table, id, field, text]);
      }
    }
  }
  return lines;
}

/**
 * Erases the person in one transaction: their requests, calls, notes,
 * history and notifications, the contact itself; the activity entries that
 * named them keep what was done but not who it was done to. Returns what was
 * erased (for the record), or null when there is no such contact.
 */
export async function erasePerson(
  db: Database,
  contactId: string,
  actor: Actor,
): Promise<{ requests: number; calls: number; notes: number } | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ phone: string; name: string }>(
      'SELECT phone, name FROM contacts WHERE id = $1 FOR UPDATE',
      [contactId],
    );
    const contact = rows[0];
    if (!contact) return null;
    const names = await tx.query<{ name: string }>(
      `SELECT DISTINCT name FROM (
         SELECT name FROM contacts WHERE id = $1
         UNION ALL ${everyLeadTable(({ table }) => `SELECT name FROM ${table} WHERE contact_id = $1 OR phone = $2`)}
         UNION ALL SELECT name FROM voice_calls WHERE (contact_id = $1 OR phone = $2) AND name IS NOT NULL
         -- Names it had before a correction, and of the contacts merged into it (decision 0037).
         UNION ALL SELECT from_value FROM contact_events WHERE contact_id = $1 AND kind IN ('name', 'merged')
       ) AS known WHERE char_length(name) >= 2`,
      [contactId, contact.phone],
    );
    // The one path allowed to rewrite activity entries (migration 0012), for this transaction only.
    await tx.query(`SET LOCAL ceiba.erasure = 'on'`);
    // The entries of the contacts merged into this one name them by their own ids.
    const named = await tx.query<{ id: string; summary: string }>(
      `SELECT id, summary FROM activity_log WHERE details ->> 'contact' = $1::text
          OR details ->> 'contact' IN (SELECT detail FROM contact_events WHERE contact_id = $2 AND kind = 'merged')`,
      [contactId, contactId],
    );
    // Longest first: "Ana López Pérez" before "Ana López".
    const known = names.rows.map((row) => row.name).sort((a, b) => b.length - a.length);
    for (const entry of named.rows) {
      const summary = known.reduce((text, name) => text.replaceAll(name, '[persona eliminada]'), entry.summary);
      await tx.query(`UPDATE activity_log SET summary = $2, details = details - 'contact' WHERE id = $1`, [
        entry.id,
        summary,
      ]);
    }
    let requests = 0;
    for (const table of LEAD_TABLES) {
      const deleted = await tx.query(`DELETE FROM ${table} WHERE contact_id = $1 OR phone = $2`, [
        contactId,
        contact.phone,
      ]);
      requests += deleted.rowCount ?? 0;
    }
    const calls = await tx.query('DELETE FROM voice_calls WHERE contact_id = $1 OR phone = $2', [
      contactId,
      contact.phone,
    ]);
    const notes = await tx.query('SELECT count(*)::int AS count FROM contact_notes WHERE contact_id = $1', [contactId]);
    // Notes, history and notifications go with the contact (ON DELETE CASCADE).
    await tx.query('DELETE FROM contacts WHERE id = $1', [contactId]);
    const erased = {
      requests,
      calls: calls.rowCount ?? 0,
      notes: (notes.rows[0] as { count: number }).count,
    };
    await recordActivity(tx, {
      actor,
      kind: 'person_erased',
      summary: `Eliminó a petición suya todos los datos de una persona: ${counted(erased.requests, 'solicitud', 'solicitudes')}, ${counted(erased.calls, 'llamada', 'llamadas')} y ${counted(erased.notes, 'nota', 'notas')}`,
      details: erased,
    });
    return erased;
  });
}
