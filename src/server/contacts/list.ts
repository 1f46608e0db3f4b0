import {
  CONTACT_STATES,
  type ContactFilter,
  type ContactKind,
  type ContactState,
  type ContactSummary,
  type LostReason,
  UNATTENDED_AFTER_HOURS,
} from '../../lib/admin/contacts.ts';
import type { AgendaFilter } from '../../lib/admin/today.ts';
import { normalizePhone } from '../../lib/forms/phone.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import { plannedEachRun, type Queryable } from '../db/database.ts';
import { LEADS_OF_CONTACT, sentForm } from '../leads/kinds.ts';
import {
  isoInstant,
  meridaDayEnd,
  meridaDayStart,
  NEXT_CONTACT,
  NEXT_CONTACT_AT,
  OPEN,
  OVERDUE,
} from './next-contact.ts';

/**
 * The search term as `search_text` holds it: a phone written any way
 * ("999 123 4567", "+52 999…", "(999) 123-4567") becomes its digits, in E.164
 * when it is a whole number; anything else is matched lower-case and without
 * accents by the database (immutable_unaccent).
 */
export function searchCondition(q: string, values: unknown[]): string {
  if (/^[\d\s()+.-]+$/.test(q) && /\d{3}/.test(q.replace(/\D/g, ''))) {
    const digits = (normalizePhone(q) ?? q).replace(/\D/g, '');
    values.push(`%${digits}%`);
    return `c.search_text LIKE $${values.length}`;
  }
  // Escaped after unaccent, which turns fullwidth ％ ＿ ＼ into the LIKE wildcards.
  values.push(q.toLowerCase());
  const term = `immutable_unaccent($${values.length})`;
  return `c.search_text LIKE '%' || replace(replace(replace(${term}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/** A search's statement is planned for its word at each run: a rare word and a common one want other plans. */
const planned = (filter: ContactFilter, text: string) => (filter.q ? plannedEachRun(text) : text);

/** What each figure of "Hoy" and "Métricas" counts, as a filter of the list (the same SQL as the figure). */
const AGENDA_CONDITIONS: Record<AgendaFilter, string> = {
  vencidos: OVERDUE('now()'),
  hoy: `${OPEN} AND ${NEXT_CONTACT_AT} >= ${meridaDayStart('now()')} AND ${NEXT_CONTACT_AT} < ${meridaDayEnd('now()')}`,
  nuevos: `c.state = 'nuevo' AND ${NEXT_CONTACT_AT} IS NULL`,
  sin_atender: `c.state = 'nuevo' AND c.first_replied_at IS NULL
    AND c.created_at < now() - interval '${UNATTENDED_AFTER_HOURS} hours'`,
};

/** The WHERE conditions of a filter (the state's apart: the counts per state ignore it). */
function conditions(filter: ContactFilter, values: unknown[]): string[] {
  const where: string[] = [];
  if (filter.q) where.push(searchCondition(filter.q, values));
  if (filter.kind) where.push(filter.kind === 'comprador' ? 'c.is_buyer' : 'c.is_partner');
  if (filter.form) where.push(sentForm(filter.form));
  if (filter.campaign) {
    values.push(filter.campaign);
    where.push(`c.first_touch ->> 'utm_campaign' = $${values.length}`);
  }
  if (filter.source) {
    values.push(filter.source);
    where.push(`c.first_source = $${values.length}`);
  }
  if (filter.ad) {
    values.push(filter.ad);
    where.push(`c.first_ad = $${values.length}`);
  }
  if (filter.assigned === 'none') where.push('c.assigned_to IS NULL');
  else if (filter.assigned) {
    values.push(filter.assigned);
    where.push(`c.assigned_to = $${values.length}`);
  }
  if (filter.from) {
    values.push(filter.from);
    where.push(`c.created_at >= ($${values.length}::date::timestamp AT TIME ZONE 'America/Merida')`);
  }
  if (filter.to) {
    values.push(filter.to);
    where.push(`c.created_at < (($${values.length}::date + 1)::timestamp AT TIME ZONE 'America/Merida')`);
  }
  if (filter.agenda) where.push(AGENDA_CONDITIONS[filter.agenda]);
  return where;
}

/**
 * The list runs newest activity first; the CSV export pages by creation time,
 * which never changes, so a contact that gets a lead mid-export is not skipped.
 */
export type Order = 'activity' | 'created';
const ORDER_COLUMN: Record<Order, string> = { activity: 'last_activity_at', created: 'created_at' };

/** Who follows the contact: its id and name (or e-mail). */
export const ASSIGNED_COLUMNS = `c.assigned_to,
  (SELECT coalesce(u.name, u.email) FROM users u WHERE u.id = c.assigned_to) AS assigned_name`;

/** The list's columns; `cursor_at` is the ordering column (an instant) at microsecond precision. */
export const summaryColumns = (cursorColumn: string) => `
  c.id, c.name, c.phone, c.email, c.municipality, c.is_buyer, c.is_partner, c.state, c.lost_reason,
  ${NEXT_CONTACT} AS next_contact_at, c.attempts, c.created_at, c.last_activity_at,
  c.first_touch ->> 'utm_campaign' AS first_campaign, c.version, c.first_replied_at, ${ASSIGNED_COLUMNS},
  ${LEADS_OF_CONTACT} AS requests,
  ${cursorTime(cursorColumn)}`;

export interface SummaryRow {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  municipality: string | null;
  is_buyer: boolean;
  is_partner: boolean;
  state: ContactState;
  lost_reason: LostReason | null;
  next_contact_at: Date | null;
  attempts: number;
  created_at: Date;
  last_activity_at: Date;
  first_campaign: string | null;
  version: number;
  assigned_to: string | null;
  assigned_name: string | null;
  /** A member's first WhatsApp message accepted by the platform: the contact is attended (issue #27). */
  first_replied_at?: Date | null;
  requests: string | number;
  cursor_at: string;
}

export function toSummary(row: SummaryRow, now = Date.now()): ContactSummary {
  const kinds: ContactKind[] = [];
  if (row.is_buyer) kinds.push('comprador');
  if (row.is_partner) kinds.push('socio');
  const createdAt = new Date(row.created_at);
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    municipality: row.municipality,
    kinds,
    state: row.state,
    lostReason: row.lost_reason,
    nextContactAt: isoInstant(row.next_contact_at),
    attempts: row.attempts,
    createdAt: createdAt.toISOString(),
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
    firstCampaign: row.first_campaign,
    assignedTo: row.assigned_to ? { id: row.assigned_to, name: row.assigned_name ?? '' } : null,
    requests: Number(row.requests),
    version: row.version,
    unattended:
      row.state === 'nuevo' && !row.first_replied_at && now - createdAt.getTime() > UNATTENDED_AFTER_HOURS * 3_600_000,
  };
}

export interface ContactPage {
  items: ContactSummary[];
  nextCursor: string | null;
  /** Contacts matching every filter; a lower bound when `capped`. */
  total: number;
  /** Contacts per state for the current filters (the state filter aside); null when past the counting cap. */
  counts: Record<ContactState, number> | null;
  /** More than COUNT_CAP contacts match a search or filter: `total` says "more than". */
  capped: boolean;
}

/**
 * Counting a quarter of 100,000 contacts for a broad search costs more than
 * the page itself: past this many matches the panel says "más de 500".
 * Without search or filters the counts come exact from contact_state_counts
 * (a view summing the changes the trigger adds; decision 0030).
 */
export const COUNT_CAP = 500;

/** One page of contacts, newest activity first, with the counts of the filters. */
export async function listContacts(
  db: Queryable,
  filter: ContactFilter,
  cursor: Cursor | null,
  limit: number,
): Promise<ContactPage> {
  // All at once: the page, the counts of the filters, and (for a state within a search) that state's total.
  const [page, counts, stateTotal] = await Promise.all([
    contactsAfter(db, filter, cursor, limit + 1),
    countByState(db, filter),
    filter.state && hasFilters(filter) && !countedExactly(filter) ? countUpToCap(db, filter) : Promise.resolve(null),
  ]);
  const items = page.slice(0, limit);
  const last = items.at(-1);
  // Exact counts (none past the cap with filters), a state's own count up to the cap, or "more than the cap".
  let total = COUNT_CAP;
  let capped = true;
  if (stateTotal !== null) {
    capped = stateTotal > COUNT_CAP;
    total = Math.min(stateTotal, COUNT_CAP);
  } else if (counts) {
    capped = false;
    total = filter.state ? counts[filter.state] : Object.values(counts).reduce((sum, n) => sum + n, 0);
  }
  return {
    items: items.map((row) => toSummary(row)),
    nextCursor: page.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
    total,
    counts,
    capped,
  };
}

/** Rows of the filter after `cursor`, newest activity first (the CSV export reads it in batches). */
export async function contactsAfter(
  db: Queryable,
  filter: ContactFilter,
  cursor: Cursor | null,
  limit: number,
  order: Order = 'activity',
): Promise<SummaryRow[]> {
  const column = `c.${ORDER_COLUMN[order]}`;
  const values: unknown[] = [];
  const where = conditions(filter, values);
  if (filter.state) {
    values.push(filter.state);
    where.push(`c.state = $${values.length}`);
  }
  if (cursor) {
    values.push(cursor.at, cursor.id);
    where.push(`(${column}, c.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(limit);
  const { rows } = await db.query<SummaryRow>(
    planned(
      filter,
      `SELECT ${summaryColumns(column)} FROM contacts c
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${column} DESC, c.id DESC
       LIMIT $${values.length}`,
    ),
    values,
  );
  return rows;
}

/** The filters that narrow the people, besides the state and the assignment. */
const NARROWING = ['q', 'kind', 'form', 'campaign', 'ad', 'source', 'from', 'to', 'agenda'] as const;
const narrowed = (filter: ContactFilter) => NARROWING.some((name) => Boolean(filter[name]));

/** Any filter but the state's (the counts per state then count the filter's contacts, not everyone). */
const hasFilters = (filter: ContactFilter) => Boolean(filter.assigned) || narrowed(filter);

/**
 * One member's contacts ("Mis prospectos", a member's list) and nothing else
 * but a state: a few thousand at most, counted exactly through the
 * assignment's index instead of stopping at COUNT_CAP.
 */
const countedExactly = (filter: ContactFilter) =>
  Boolean(filter.assigned && filter.assigned !== 'none') && !narrowed(filter);

/** Contacts per state for the filters (the state filter aside), or null when more than COUNT_CAP match. */
async function countByState(db: Queryable, filter: ContactFilter): Promise<Record<ContactState, number> | null> {
  const counts = Object.fromEntries(CONTACT_STATES.map((state) => [state, 0])) as Record<ContactState, number>;
  if (!hasFilters(filter)) {
    const { rows } = await db.query<{ state: ContactState; contacts: string }>(
      'SELECT state, contacts FROM contact_state_counts',
    );
    for (const row of rows) counts[row.state] = Number(row.contacts);
    return counts;
  }
  const values: unknown[] = [];
  const where = conditions(filter, values);
  const exact = countedExactly(filter);
  // A search's matches in the order of the state's index (which carries the search text, migration 0049):
  // the planner then reads that index alone and stops at the cap for a common word, where it chose to read the
  // table's rows. Which rows fill the cap does not matter: past it the counts are not shown.
  if (!exact) values.push(COUNT_CAP + 1);
  const { rows } = await db.query<{ state: ContactState; n: number }>(
    planned(
      filter,
      `SELECT state, count(*)::int AS n
       FROM (SELECT c.state FROM contacts c WHERE ${where.join(' AND ')} ${exact ? '' : `${filter.q ? 'ORDER BY c.state ' : ''}LIMIT $${values.length}`}) matching
       GROUP BY state`,
    ),
    values,
  );
  if (!exact && rows.reduce((sum, row) => sum + row.n, 0) > COUNT_CAP) return null;
  for (const row of rows) counts[row.state] = row.n;
  return counts;
}

/** Contacts matching every filter, counted up to COUNT_CAP + 1. */
async function countUpToCap(db: Queryable, filter: ContactFilter): Promise<number> {
  const values: unknown[] = [];
  const where = conditions(filter, values);
  if (filter.state) {
    values.push(filter.state);
    where.push(`c.state = $${values.length}`);
  }
  values.push(COUNT_CAP + 1);
  const { rows } = await db.query<{ n: number }>(
    planned(
      filter,
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM contacts c
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} LIMIT $${values.length}) matching`,
    ),
    values,
  );
  return rows[0]?.n ?? 0;
}
