import { ATTRIBUTION_KEYS } from '../../lib/admin/attribution.ts';
import { findTemplate, renderTemplate, templateFor, templateParameters } from '../../lib/whatsapp/templates.ts';
import { getConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { enabledChannels } from '../outbox/queue.ts';
import { LeadBatcher } from './batch.ts';
import { kindOfTable, type LeadTable } from './kinds.ts';
import type { RateLimitRule } from './rate-limit.ts';
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
  /** The instant first reply by WhatsApp stored with it (its send job is the caller's to add), or null. */
  firstReply?: string | null;
}

/** An idempotency key and the fingerprint (SHA-256) of the request it was first used for. */
export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** The per-IP limit a lead is counted against (`subject`: the client's address), in the same round trip. */
export interface RateLimitHit {
  rule: RateLimitRule;
  subject: string;
}

/** The key was already used with another request: nothing is stored, the client gets 422. */
export class IdempotencyConflict extends Error {
  override name = 'IdempotencyConflict';
}

/** Over the per-IP limit: nothing is stored, the client gets 429. */
export class RateLimited extends Error {
  override name = 'RateLimited';
}

type Stored =
  | { limited: true }
  | { conflict: true }
  | { id: string; created: boolean; deliveries: string[]; values: Record<string, unknown>; firstReply?: string | null };

/**
 * The instant first reply of a lead (issue #27): the configured template
 * (WHATSAPP_FIRST_REPLY_TEMPLATE) filled in with the lead's name, when the
 * conversations are on and the lead's form told the visitor we write by
 * WhatsApp (its notice's version is on the row); otherwise null, and
 * store_lead() stores none.
 */
function firstReplyOf(row: Row): { template: string; body: string; parameters: unknown } | null {
  const name = getConfig().whatsapp?.firstReplyTemplate;
  const configured = name ? findTemplate(name) : undefined;
  if (!configured || !row.whatsapp_notice_version) return null;
  // The lead's first name, or the template's twin without it when the name is no name (decision 0049).
  const { template, values } = templateFor(configured, { name: String(row.name) });
  // An object: pg sends it as JSON to store_lead()'s jsonb, and store_leads()' array carries it as it is.
  return {
    template: template.name,
    body: renderTemplate(template, values),
    parameters: templateParameters(template, values),
  };
}

/**
 * Stores one lead in one round trip to PostgreSQL: `store_lead()` (its live
 * body, and store_leads_together()'s, in db/schema.sql) counts the request against
 * the rate limit, replays or refuses a used idempotency key, creates or
 * updates the lead's contact (round-robin, reopening), inserts the lead and
 * its notifications' deliveries, as one statement: all of it or nothing.
 * Their jobs are the caller's to add after the answer (scheduleSoon). With an
 * idempotency key already used for the same request, nothing is written and
 * the lead stored the first time is returned; for another request,
 * IdempotencyConflict is thrown; over the limit, RateLimited.
 */
export async function insertLead(
  db: Database,
  table: LeadTable,
  row: Row,
  idempotency: Idempotency | null,
  returning: readonly string[] = [],
  rateLimit: RateLimitHit | null = null,
): Promise<StoredLead> {
  const { kind, contactKind } = kindOfTable(table);
  const touch = Object.fromEntries(
    ATTRIBUTION_KEYS.filter((key) => row[key] !== null && row[key] !== undefined).map((key) => [key, String(row[key])]),
  );
  const contact = {
    phone: String(row.phone),
    name: String(row.name),
    email: row.email ?? null,
    municipality: row.municipality ?? null,
    buyer: contactKind === 'comprador',
    touch,
  };
  const values = [
    table,
    row,
    contact,
    idempotency?.key ?? null,
    idempotency?.fingerprint ?? null,
    kind,
    enabledChannels(),
    returning,
    rateLimit?.rule.bucket ?? null,
    rateLimit?.subject ?? null,
    rateLimit?.rule.windowSeconds ?? null,
    rateLimit?.rule.limit ?? 0,
    firstReplyOf(row),
  ];
  let stored: Stored;
  try {
    stored = await storeWithOthers(db, values);
  } catch (error) {
    // A row with this key stored without store_lead's lock (an older deploy): everything was undone; read it.
    if (!idempotency || (error as { hint?: string }).hint !== 'store_lead') throw error;
    stored = await store(db, [...values.slice(0, -2), 0, values.at(-1)]);
  }
  if ('limited' in stored) throw new RateLimited();
  if ('conflict' in stored) throw new IdempotencyConflict();
  return stored;
}

/** One batcher per shared pool (the local server's): leads waiting at the same moment go in one statement. */
const batchers = new WeakMap<object, LeadBatcher<Stored>>();

/**
 * Stores the lead with the others waiting for the same pool at this moment
 * (src/server/leads/batch.ts, decision 0044); on its own where the pool is
 * the request's own (Neon's driver on Netlify).
 */
function storeWithOthers(db: Database, values: unknown[]): Promise<Stored> {
  if (!db.shared) return store(db, values);
  let batcher = batchers.get(db.shared);
  if (!batcher) {
    batcher = new LeadBatcher<Stored>(db, store, (args) => (args[2] as { phone: string }).phone);
    batchers.set(db.shared, batcher);
  }
  return batcher.add(values);
}

async function store(db: Queryable, values: unknown[]): Promise<Stored> {
  const { rows } = await db.query<{ stored: Stored }>(
    'SELECT store_lead($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) AS stored',
    values,
  );
  return rows[0]?.stored as Stored;
}
