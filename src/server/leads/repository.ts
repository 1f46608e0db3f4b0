import { findTemplate, renderTemplate, templateFor, templateParameters } from '../../lib/whatsapp/templates.ts';
import { getConfig } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { enabledChannels } from '../outbox/queue.ts';
import { LeadBatcher } from './batch.ts';
import { kindOfTable, type LeadTable } from './kinds.ts';
import type { RateLimitRule } from './rate-limit.ts';
import type { Row } from './rows.ts';
import { keptUserAgent, visitTouch } from './touch.ts';

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
/**
 * The browser that sent the lead, as the request says: its User-Agent goes
 * with the touch it brought (`client_user_agent`), which Meta requires of a
 * website event (src/server/conversions/conversions.ts). Not shown to the
 * team, not sent anywhere else.
 */
export interface LeadClient {
  userAgent: string | null;
}

export { keptUserAgent };

export interface RateLimitHit {
  rule: RateLimitRule;
  subject: string;
}

/**
 * One lead as the database reads it: the composite type `lead_request`
 * (db/schema.sql), field by field, sent as a JSON object to
 * store_lead_request() or, with others, store_lead_requests().
 */
export interface LeadRequest {
  lead_table: LeadTable;
  /** The row's columns as the form's function built them (rows.ts). */
  lead_row: Row;
  /** touch_contact()'s arguments: the person the lead belongs to. */
  contact: {
    phone: string;
    name: string;
    email: unknown;
    municipality: unknown;
    buyer: boolean;
    touch: Record<string, string>;
  };
  idempotency_key: string | null;
  idempotency_fingerprint: string | null;
  /** The lead's kind in its deliveries (kinds.ts). */
  lead_kind: string;
  /** The notification channels turned on: one delivery each. */
  channels: string[];
  /** Columns of the stored row the endpoint answers with, besides id. */
  returning_columns: readonly string[];
  /** The per-IP limit: bucket, client address, window in seconds, limit (0: none). */
  rate_bucket: string | null;
  rate_subject: string | null;
  rate_window: number | null;
  rate_limit: number;
  /** The WhatsApp first reply stored with the lead, or null. */
  first_reply: { template: string; body: string; parameters: unknown } | null;
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
 * nothing is stored.
 */
function firstReplyOf(row: Row): { template: string; body: string; parameters: unknown } | null {
  const name = getConfig().whatsapp?.firstReplyTemplate;
  const configured = name ? findTemplate(name) : undefined;
  if (!configured || !row.whatsapp_notice_version) return null;
  // The lead's first name, or the template's twin without it when the name is no name (decision 0049).
  const { template, values } = templateFor(configured, { name: String(row.name) });
  return {
    template: template.name,
    body: renderTemplate(template, values),
    parameters: templateParameters(template, values),
  };
}

/**
 * Stores one lead in one round trip to PostgreSQL: `store_lead_request()` (its
 * live body, and store_leads_together()'s, in db/schema.sql) counts the request against
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
  client: LeadClient | null = null,
): Promise<StoredLead> {
  const { kind, contactKind } = kindOfTable(table);
  const touch = visitTouch(row, client?.userAgent);
  const request: LeadRequest = {
    lead_table: table,
    lead_row: row,
    contact: {
      phone: String(row.phone),
      name: String(row.name),
      email: row.email ?? null,
      // An estimate's municipality is the form's fixed value (docs/product.md §11.2), not an answer of the person's.
      municipality: row.source === 'estimacion' ? null : (row.municipality ?? null),
      buyer: contactKind === 'comprador',
      touch,
    },
    idempotency_key: idempotency?.key ?? null,
    idempotency_fingerprint: idempotency?.fingerprint ?? null,
    lead_kind: kind,
    channels: enabledChannels(),
    returning_columns: returning,
    rate_bucket: rateLimit?.rule.bucket ?? null,
    rate_subject: rateLimit?.subject ?? null,
    rate_window: rateLimit?.rule.windowSeconds ?? null,
    rate_limit: rateLimit?.rule.limit ?? 0,
    first_reply: firstReplyOf(row),
  };
  let stored: Stored;
  try {
    stored = await storeWithOthers(db, request);
  } catch (error) {
    // A row with this key stored without its lock: everything was undone; read it, without counting again.
    if (!idempotency || (error as { hint?: string }).hint !== 'store_lead') throw error;
    stored = await store(db, { ...request, rate_limit: 0 });
  }
  if ('limited' in stored) throw new RateLimited();
  if ('conflict' in stored) throw new IdempotencyConflict();
  return stored;
}

/** One batcher per shared pool (the local server's): leads waiting at the same moment go in one statement. */
const batchers = new WeakMap<object, LeadBatcher<LeadRequest, Stored>>();

/**
 * Stores the lead with the others waiting for the same pool at this moment
 * (src/server/leads/batch.ts, decision 0044); on its own where the pool is
 * the request's own (Neon's driver on Netlify).
 */
function storeWithOthers(db: Database, request: LeadRequest): Promise<Stored> {
  if (!db.shared) return store(db, request);
  let batcher = batchers.get(db.shared);
  if (!batcher) {
    batcher = new LeadBatcher<LeadRequest, Stored>(db, store, (lead) => lead.contact.phone);
    batchers.set(db.shared, batcher);
  }
  return batcher.add(request);
}

async function store(db: Queryable, request: LeadRequest): Promise<Stored> {
  const { rows } = await db.query<{ stored: Stored }>('SELECT store_lead_request($1) AS stored', [request]);
  return rows[0]?.stored as Stored;
}
