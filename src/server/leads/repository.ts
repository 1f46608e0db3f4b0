import type { Queryable } from '../db/database.ts';
import type { Row } from './rows.ts';

export const LEAD_TABLES = ['cotizaciones_rapidas', 'quote_requests', 'partner_applications'] as const;
export type LeadTable = (typeof LEAD_TABLES)[number];

export interface StoredLead {
  id: string;
  /** false when the idempotency key had already stored this lead. */
  created: boolean;
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

/**
 * Inserts one lead. With an idempotency key already used for the same
 * request, nothing is written and the lead stored the first time is returned;
 * for another request, IdempotencyConflict is thrown.
 */
export async function insertLead(
  db: Queryable,
  table: LeadTable,
  row: Row,
  idempotency: Idempotency | null,
  returning: readonly string[] = [],
): Promise<StoredLead> {
  const columns = [...Object.keys(row), 'idempotency_key', 'idempotency_fingerprint'];
  const values = [...Object.values(row), idempotency?.key ?? null, idempotency?.fingerprint ?? null];
  const placeholders = columns.map((_, index) => `$${index + 1}`);
  const output = ['id', ...returning].join(', ');
  const inserted = await db.query<Record<string, unknown> & { id: string }>(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING ${output}`,
    values,
  );
  const fresh = inserted.rows[0];
  if (fresh) return { id: fresh.id, created: true, values: fresh };

  const existing = await db.query<Record<string, unknown> & { id: string; idempotency_fingerprint: string | null }>(
    `SELECT ${output}, idempotency_fingerprint FROM ${table} WHERE idempotency_key = $1`,
    [idempotency?.key],
  );
  const first = existing.rows[0];
  if (!first) throw new Error(`${table}: idempotent insert returned no row`);
  const { idempotency_fingerprint: fingerprint, ...stored } = first;
  // Rows stored before fingerprints existed have none: they replay as they always did.
  if (fingerprint !== null && fingerprint !== idempotency?.fingerprint) throw new IdempotencyConflict();
  return { id: first.id, created: false, values: stored };
}
