import {
  TODAY_SECTIONS,
  type TodayAgenda,
  type TodayScope,
  type TodaySection,
  type TodaySectionPage,
} from '../../lib/admin/today.ts';
import { type Cursor, encodeCursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { type SummaryRow, summaryColumns, toSummary } from './list.ts';
import {
  BEFORE_TODAY,
  meridaDayEnd,
  meridaDayStart,
  NEXT_CONTACT_AT,
  OPEN,
  OPEN_STATES,
  OVERDUE,
} from './next-contact.ts';

/**
 * Cards per section on the first page, and per "Cargar más": four sections of
 * ten are several phone screens already, and each card costs its counts of
 * requests (the first page's 50 ms budget at 100,000 contacts).
 */
export const TODAY_PAGE = 10;

/**
 * Each section of "Hoy" as SQL, given "now" (an instant; the day is
 * Mérida's): which contacts, in which order, and the cursor's column. The
 * four are disjoint and together are every open contact, so their totals add
 * up to the open contacts of the scope.
 */
interface SectionSql {
  /** The condition; `now()` gives the placeholder of "now" (only the sections that use it bind it). */
  where(now: () => string): string;
  /** The ordering column (an instant) and its direction; ties by id the same way. */
  order: string;
  direction: 'ASC' | 'DESC';
}
const SECTIONS: Record<TodaySection, SectionSql> = {
  overdue: {
    where: (now) => OVERDUE(now()),
    order: NEXT_CONTACT_AT,
    direction: 'ASC',
  },
  today: {
    where: (now) =>
      `${OPEN} AND ${NEXT_CONTACT_AT} >= ${meridaDayStart(now())} AND ${NEXT_CONTACT_AT} < ${meridaDayEnd(now())}`,
    order: NEXT_CONTACT_AT,
    direction: 'ASC',
  },
  new: { where: () => `c.state = 'nuevo' AND ${NEXT_CONTACT_AT} IS NULL`, order: 'c.created_at', direction: 'ASC' },
  rest: {
    where: (now) =>
      `${OPEN} AND (${NEXT_CONTACT_AT} >= ${meridaDayEnd(now())} OR (${NEXT_CONTACT_AT} IS NULL AND c.state <> 'nuevo'))`,
    order: 'c.last_activity_at',
    direction: 'DESC',
  },
};

/** Whose contacts: the member's own, or everyone's. */
export interface TodayScopeOf {
  scope: TodayScope;
  memberId: string;
}

/** The parameters of one statement: "now" and the member bound once each, whatever refers to them. */
class Params {
  readonly values: unknown[] = [];
  private readonly bound = new Map<string, string>();
  private readonly instant: Date;
  private readonly who: TodayScopeOf;
  constructor(instant: Date, who: TodayScopeOf) {
    this.instant = instant;
    this.who = who;
  }
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  private once(name: string, value: unknown): string {
    const known = this.bound.get(name);
    if (known) return known;
    const placeholder = this.add(value);
    this.bound.set(name, placeholder);
    return placeholder;
  }
  now = (): string => this.once('now', this.instant.toISOString());
  /** The scope as a condition: everyone's, or the member's own. */
  scope = (): string =>
    this.who.scope === 'all' ? 'TRUE' : `c.assigned_to = ${this.once('member', this.who.memberId)}`;
}

/** The SELECT of one page of a section, in its order, after `cursor`; each row says its section. */
function sectionSelect(params: Params, section: TodaySection, cursor: Cursor | null, limit: number): string {
  const sql = SECTIONS[section];
  const where = [sql.where(params.now), params.scope()];
  if (cursor) {
    const comparison = sql.direction === 'ASC' ? '>' : '<';
    where.push(
      `(${sql.order}, c.id) ${comparison} (${params.add(cursor.at)}::timestamptz, ${params.add(cursor.id)}::uuid)`,
    );
  }
  return `SELECT '${section}' AS section, ${summaryColumns(sql.order)} FROM contacts c
     WHERE ${where.join(' AND ')}
     ORDER BY ${sql.order} ${sql.direction}, c.id ${sql.direction}
     LIMIT ${params.add(limit + 1)}`;
}

type SectionRow = SummaryRow & { section: TodaySection };

/** Rows of one section as its page: `limit` items, the cursor after them when there are more (in its own order). */
function pageOf(rows: SummaryRow[], section: TodaySection, limit: number, now: Date): Omit<TodaySectionPage, 'total'> {
  const sign = SECTIONS[section].direction === 'ASC' ? 1 : -1;
  // A UNION ALL keeps no order between its parts' rows by contract: the section's order is put back here.
  const ordered = [...rows].sort(
    (a, b) => sign * (a.cursor_at < b.cursor_at ? -1 : a.cursor_at > b.cursor_at ? 1 : a.id < b.id ? -1 : 1),
  );
  const items = ordered.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => toSummary(row, now.getTime())),
    nextCursor: ordered.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** One page of a section, in its order, after `cursor`. */
export async function todaySection(
  db: Queryable,
  scope: TodayScopeOf,
  section: TodaySection,
  cursor: Cursor | null,
  limit: number,
  now: Date,
): Promise<Omit<TodaySectionPage, 'total'>> {
  const params = new Params(now, scope);
  const { rows } = await db.query<SectionRow>(sectionSelect(params, section, cursor, limit), params.values);
  return pageOf(rows, section, limit, now);
}

/**
 * The overdue and today's next contacts of the scope, counted in one
 * index-only pass over the next contacts up to tonight (the WHERE keeps the
 * open ones, so the overdue FILTER is OVERDUE's moment alone).
 */
function dueCounts(params: Params): string {
  return `SELECT count(*) FILTER (WHERE ${BEFORE_TODAY(params.now())})::int AS overdue,
                 count(*) FILTER (WHERE ${NEXT_CONTACT_AT} >= ${meridaDayStart(params.now())})::int AS today
          FROM contacts c WHERE ${OPEN} AND ${NEXT_CONTACT_AT} < ${meridaDayEnd(params.now())} AND ${params.scope()}`;
}

/**
 * "Vencidos" (issue #38, decision 0053): the one count of overdue contacts,
 * the same statement as the figure of "Hoy". The panel's badge asks it for
 * the scope "Hoy" opens on (an adviser's own, the team's for an
 * administrator), "Métricas" for the team's.
 */
export async function overdueCount(db: Queryable, scope: TodayScopeOf, now = new Date()): Promise<number> {
  const params = new Params(now, scope);
  const { rows } = await db.query<{ overdue: number }>(
    `SELECT due.overdue FROM (${dueCounts(params)}) due`,
    params.values,
  );
  return rows[0]?.overdue ?? 0;
}

/** The scope "Hoy" opens on for a member: the team's for an administrator, their own for an adviser. */
export const defaultScope = (member: { id: string; admin: boolean }): TodayScopeOf => ({
  scope: member.admin ? 'all' : 'mine',
  memberId: member.id,
});

/**
 * The totals of the four sections in one statement: overdue and today (an
 * index-only pass over the next contacts up to tonight), the new ones, and
 * the open contacts of the scope (the rest is what remains: the sections are
 * disjoint and cover them). Everyone's open contacts come from
 * contact_state_counts (decision 0030).
 */
export async function todayTotals(
  db: Queryable,
  scope: TodayScopeOf,
  now: Date,
): Promise<Record<TodaySection, number>> {
  const params = new Params(now, scope);
  // Everyone's: the open and the `nuevo` contacts from contact_state_counts, and the new section as the
  // `nuevo` ones minus the few with a next contact (a count over 30,000 index entries becomes one over tens).
  // A member's: a few thousand contacts, counted through the member's indexes.
  const everyone = scope.scope === 'all';
  const open = everyone
    ? `(SELECT coalesce(sum(contacts), 0) FROM contact_state_counts WHERE state = ANY(${params.add(OPEN_STATES)}))::int`
    : `(SELECT count(*) FROM contacts c WHERE ${OPEN} AND ${params.scope()})::int`;
  const fresh = everyone
    ? `((SELECT coalesce(sum(contacts), 0) FROM contact_state_counts WHERE state = 'nuevo')
        - (SELECT count(*) FROM contacts c WHERE c.state = 'nuevo' AND ${NEXT_CONTACT_AT} IS NOT NULL))::int`
    : `(SELECT count(*) FROM contacts c WHERE ${SECTIONS.new.where(params.now)} AND ${params.scope()})::int`;
  const { rows } = await db.query<{ overdue: number; today: number; new: number; open: number }>(
    `SELECT due.overdue, due.today, ${open} AS open, ${fresh} AS new FROM (${dueCounts(params)}) due`,
    params.values,
  );
  const { overdue = 0, today = 0, new: unattended = 0, open: opened = 0 } = rows[0] ?? {};
  return { overdue, today, new: unattended, rest: Math.max(0, opened - overdue - today - unattended) };
}

/** The first page of every section in one statement (one round trip instead of four). */
async function firstPages(db: Queryable, scope: TodayScopeOf, now: Date) {
  const params = new Params(now, scope);
  const { rows } = await db.query<SectionRow>(
    TODAY_SECTIONS.map((section) => `(${sectionSelect(params, section, null, TODAY_PAGE)})`).join(' UNION ALL '),
    params.values,
  );
  return Object.fromEntries(
    TODAY_SECTIONS.map((section) => [
      section,
      pageOf(
        rows.filter((row) => row.section === section),
        section,
        TODAY_PAGE,
        now,
      ),
    ]),
  ) as Record<TodaySection, Omit<TodaySectionPage, 'total'>>;
}

const MERIDA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' });

/**
 * "Hoy": each section's first page and total, for the day of `now` in
 * Mérida. The day's appointments (issue #40) are the appointments' own
 * (src/server/appointments/day.ts); admin-today.ts joins them.
 */
export async function todayAgenda(
  db: Queryable,
  scope: TodayScopeOf,
  now = new Date(),
): Promise<Omit<TodayAgenda, 'appointments'>> {
  const [totals, pages] = await Promise.all([todayTotals(db, scope, now), firstPages(db, scope, now)]);
  const sections = Object.fromEntries(
    TODAY_SECTIONS.map((section) => [section, { ...pages[section], total: totals[section] }]),
  ) as TodayAgenda['sections'];
  return { scope: scope.scope, day: MERIDA_DAY.format(now), sections };
}
