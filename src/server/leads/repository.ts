import { touchContact } from '../contacts/touch.ts';
import type { Database, Queryable } from '../db/database.ts';
import { enqueueLeadNotifications } from '../notifications/queue.ts';
import { kindOfTable, type LeadTable } from './kinds.ts';
import type { Row } from './rows.ts';

export { LEAD_TABLE_OF_KIND, LEAD_TABLES, type LeadTable } from './kinds.ts';

export interface StoredLead {
  id: string;
  /** false when the idempotency key had already stored this lead. */
  created: boolean;
  /** The notifications queued with it (none for a replay or with every channel off). */
  deliveries: string[];
  /** The returned columns, as stored. */
  values: Record<string, unknown>;
}

/** An idempotency key and the fingerprint (SHA-256) of the request it was first used for. */
export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** The key was already used with another request: nothing is stored, the client gets 422. */
export class IdempotencyConflict extends Error {
  override name = 'IdempotencyConflict';
}

/** The key was taken by a request that committed while this one ran: answer as a replay. */
class KeyTaken extends Error {}

/**
 * Inserts one lead and brings its contact up to date, in one transaction.
 * With an idempotency key already used for the same request, nothing is
 * written and the lead stored the first time is returned; for another
 * request, IdempotencyConflict is thrown.
 */
export async function insertLead(
  db: Database,
  table: LeadTable,
  row: Row,
  idempotency: Idempotency | null,
  returning: readonly string[] = [],
): Promise<StoredLead> {
  const output = ['id', ...returning].join(', ');
  if (idempotency) {
    const first = await storedWithKey(db, table, output, idempotency);
    if (first) return first;
  }
  const { kind, contactKind } = kindOfTable(table);
  try {
    return await db.transaction(async (tx) => {
      const contactId = await touchContact(tx, {
        phone: String(row.phone),
        name: String(row.name),
        email: (row.email as string | null | undefined) ?? null,
        municipality: (row.municipality as string | null | undefined) ?? null,
        kind: contactKind,
        row,
      });
      const values = { ...row, contact_id: contactId };
      const columns = [...Object.keys(values), 'idempotency_key', 'idempotency_fingerprint'];
      const placeholders = columns.map((_, index) => `$${index + 1}`);
      const inserted = await tx.query<Record<string, unknown> & { id: string }>(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING ${output}`,
        [...Object.values(values), idempotency?.key ?? null, idempotency?.fingerprint ?? null],
      );
      const fresh = inserted.rows[0];
      if (!fresh) throw new KeyTaken(); // rolls the contact's update back too
      // Queued in the lead's own transaction: a stored lead always has its notifications.
      const deliveries = await enqueueLeadNotifications(tx, kind, fresh.id, contactId);
      return { id: fresh.id, created: true, deliveries, values: fresh };
    });
  } catch (error) {
    if (!(error instanceof KeyTaken) || !idempotency) throw error;
    const first = await storedWithKey(db, table, output, idempotency);
    if (!first) throw new Error(`${table}: idempotent insert returned no row`);
    return first;
  }
}

/** The lead stored with this key before, or null; IdempotencyConflict when it was another request. */
async function storedWithKey(
  db: Queryable,
  table: LeadTable,
  output: string,
  idempotency: Idempotency,
): Promise<StoredLead | null> {
  const existing = await db.query<Record<string, unknown> & { id: string; idempotency_fingerprint: string | null }>(
    `SELECT ${output}, idempotency_fingerprint FROM ${table} WHERE idempotency_key = $1`,
    [idempotency.key],
  );
  const first = existing.rows[0];
  if (!first) return null;
  const { idempotency_fingerprint: fingerprint, ...stored } = first;
  // Rows stored before fingerprints existed have none: they replay as they always did.
  if (fingerprint !== null && fingerprint !== idempotency.fingerprint) throw new IdempotencyConflict();
  return { id: first.id, created: false, deliveries: [], values: stored };
}
