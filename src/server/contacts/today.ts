import {
  TODAY_SECTIONS,
  type TodayAgenda,
  type TodayScope,
  type TodaySection,
  type TodaySectionPage,
} from '../../lib/admin/today.ts';
import { type Cursor, encodeCursor } from '../admin/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { type SummaryRow, summaryColumns, toSummary } from './list.ts';
import { meridaDayEnd, meridaDayStart, NEXT_CONTACT_AT, OPEN, OPEN_STATES } from './next-contact.ts';

/** Cards per section on the first page, and per "Cargar más". */
export const TODAY_PAGE = 20;

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
    where: (now) => `${OPEN} AND ${NEXT_CONTACT_AT} < ${meridaDayStart(now())}`,
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

const scopeCondition = (scope: TodayScopeOf, values: unknown[]) => {
  if (scope.scope === 'all') return 'TRUE';
  values.push(scope.memberId);
  return `c.assigned_to = $${values.length}`;
};

/** One page of a section, in its order, after `cursor`. */
export async function todaySection(
  db: Queryable,
  scope: TodayScopeOf,
  section: TodaySection,
  cursor: Cursor | null,
  limit: number,
  now: Date,
): Promise<Omit<TodaySectionPage, 'total'>> {
  const sql = SECTIONS[section];
  const values: unknown[] = [];
  const instant = now.toISOString();
  const where = [
    sql.where(() => {
      if (!values.includes(instant)) values.push(instant);
      return `$${values.indexOf(instant) + 1}`;
    }),
    scopeCondition(scope, values),
  ];
  if (cursor) {
    values.push(cursor.at, cursor.id);
    const comparison = sql.direction === 'ASC' ? '>' : '<';
    where.push(`(${sql.order}, c.id) ${comparison} ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(limit + 1);
  const { rows } = await db.query<SummaryRow>(
    `SELECT ${summaryColumns(sql.order)} FROM contacts c
     WHERE ${where.join(' AND ')}
     ORDER BY ${sql.order} ${sql.direction}, c.id ${sql.direction}
     LIMIT $${values.length}`,
    values,
  );
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map((row) => toSummary(row, now.getTime())),
    nextCursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/**
 * The totals of the four sections: overdue and today in one pass over the
 * next contacts up to tonight, the new ones, and the open contacts of the
 * scope (the rest is what remains: the sections are disjoint and cover them).
 * Everyone's open contacts come from contact_state_counts (decision 0030).
 */
export async function todayTotals(
  db: Queryable,
  scope: TodayScopeOf,
  now: Date,
): Promise<Record<TodaySection, number>> {
  const mine = (values: unknown[]) => scopeCondition(scope, values);
  const dueValues: unknown[] = [now.toISOString()];
  const dueMine = mine(dueValues);
  const newValues: unknown[] = [];
  const newMine = mine(newValues);
  const [due, fresh, opened] = await Promise.all([
    db.query<{ overdue: number; today: number }>(
      `SELECT count(*) FILTER (WHERE ${NEXT_CONTACT_AT} < ${meridaDayStart('$1')})::int AS overdue,
              count(*) FILTER (WHERE ${NEXT_CONTACT_AT} >= ${meridaDayStart('$1')})::int AS today
       FROM contacts c WHERE ${OPEN} AND ${NEXT_CONTACT_AT} < ${meridaDayEnd('$1')} AND ${dueMine}`,
      dueValues,
    ),
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contacts c WHERE ${SECTIONS.new.where(() => 'NULL')} AND ${newMine}`,
      newValues,
    ),
    scope.scope === 'all'
      ? db.query<{ n: number }>(
          'SELECT coalesce(sum(contacts), 0)::int AS n FROM contact_state_counts WHERE state = ANY($1)',
          [OPEN_STATES],
        )
      : db.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts c WHERE ${OPEN} AND c.assigned_to = $1`, [
          scope.memberId,
        ]),
  ]);
  const overdue = due.rows[0]?.overdue ?? 0;
  const today = due.rows[0]?.today ?? 0;
  const unattended = fresh.rows[0]?.n ?? 0;
  const open = opened.rows[0]?.n ?? 0;
  return { overdue, today, new: unattended, rest: Math.max(0, open - overdue - today - unattended) };
}

const MERIDA_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Merida' });

/** "Hoy": each section's first page and total, for the day of `now` in Mérida. */
export async function todayAgenda(db: Queryable, scope: TodayScopeOf, now = new Date()): Promise<TodayAgenda> {
  const [totals, pages] = await Promise.all([
    todayTotals(db, scope, now),
    Promise.all(TODAY_SECTIONS.map((section) => todaySection(db, scope, section, null, TODAY_PAGE, now))),
  ]);
  const sections = Object.fromEntries(
    TODAY_SECTIONS.map((section, index) => [section, { ...(pages[index] as object), total: totals[section] }]),
  ) as TodayAgenda['sections'];
  return { scope: scope.scope, day: MERIDA_DAY.format(now), sections };
}
