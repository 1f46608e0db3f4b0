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

/**
 * Inserts one lead. With an idempotency key already used, nothing is written
 * and the lead stored the first time is returned instead.
 */
export async function insertLead(
  db: Queryable,
  table: LeadTable,
  row: Row,
  idempotencyKey: string | null,
  returning: readonly string[] = [],
): Promise<StoredLead> {
  const columns = [...Object.keys(row), 'idempotency_key'];
  const values = [...Object.values(row), idempotencyKey];
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

  const existing = await db.query<Record<string, unknown> & { id: string }>(
    `SELECT ${output} FROM ${table} WHERE idempotency_key = $1`,
    [idempotencyKey],
  );
  const first = existing.rows[0];
  if (!first) throw new Error(`${table}: idempotent insert returned no row`);
  return { id: first.id, created: false, values: first };
}
