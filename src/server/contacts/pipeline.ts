import { catalogueModel, dealValue } from '../../lib/admin/catalogue.ts';
import { CONTACT_STATES, type ContactState } from '../../lib/admin/contacts.ts';
import {
  PIPELINE_PAGE,
  type PipelineBoard,
  type PipelineCard,
  type PipelineColumnPage,
} from '../../lib/admin/pipeline.ts';
import { type Cursor, encodeCursor } from '../admin/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { type SummaryRow, summaryColumns, toSummary } from './list.ts';

/**
 * The pipeline ("Embudo", decision 0041): per state, its contacts latest
 * activity first (Prospectos' order), its count and the sum of its deals'
 * values: a contact's override, else its model's catalogue price
 * (lib/admin/catalogue.ts, applied when the board is read, so a price changed
 * in src/data/models.json counts at once, without a migration).
 */

/** Whose contacts: everyone's (as Prospectos shows every member), one member's, or nobody's. */
export type PipelineScope = { assigned: 'all' } | { assigned: 'none' } | { assigned: 'member'; id: string };

const ORDER = 'c.last_activity_at';

type CardRow = SummaryRow & {
  model_id: string | null;
  estimated_value_mxn: number | null;
  expected_close_on: string | null;
};

/** The scope as a condition, its value pushed on `values` when it has one. */
function scopeCondition(scope: PipelineScope, values: unknown[]): string {
  if (scope.assigned === 'all') return 'TRUE';
  if (scope.assigned === 'none') return 'c.assigned_to IS NULL';
  values.push(scope.id);
  return `c.assigned_to = $${values.length}`;
}

/** The SELECT of one column's page after `cursor` (limit + 1 rows: the extra one says there is more). */
function columnSelect(
  scope: PipelineScope,
  state: ContactState,
  cursor: Cursor | null,
  limit: number,
  values: unknown[],
): string {
  values.push(state);
  const where = [`c.state = $${values.length}`, scopeCondition(scope, values)];
  if (cursor) {
    values.push(cursor.at, cursor.id);
    where.push(`(${ORDER}, c.id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(limit + 1);
  return `SELECT ${summaryColumns(ORDER)}, c.model_id, c.estimated_value_mxn,
            to_char(c.expected_close_on, 'YYYY-MM-DD') AS expected_close_on
          FROM contacts c WHERE ${where.join(' AND ')}
          ORDER BY ${ORDER} DESC, c.id DESC LIMIT $${values.length}`;
}

function toCard(row: CardRow): PipelineCard {
  const deal = { modelId: row.model_id, estimatedValue: row.estimated_value_mxn };
  return {
    ...toSummary(row),
    ...deal,
    expectedCloseOn: row.expected_close_on,
    modelName: catalogueModel(row.model_id)?.name ?? null,
    value: dealValue(deal),
  };
}

/** A column's rows as its page: `limit` cards and the cursor after them when there are more. */
function pageOf(rows: CardRow[], limit: number): PipelineColumnPage {
  // A UNION ALL keeps no order between its parts by contract: the column's order is put back here.
  const ordered = [...rows].sort((a, b) =>
    a.cursor_at < b.cursor_at ? 1 : a.cursor_at > b.cursor_at ? -1 : a.id < b.id ? 1 : -1,
  );
  const items = ordered.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(toCard),
    nextCursor: ordered.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** One column's page after `cursor`. */
export async function pipelineColumn(
  db: Queryable,
  scope: PipelineScope,
  state: ContactState,
  cursor: Cursor | null,
  limit = PIPELINE_PAGE,
): Promise<PipelineColumnPage> {
  const values: unknown[] = [];
  const { rows } = await db.query<CardRow>(columnSelect(scope, state, cursor, limit, values), values);
  return pageOf(rows, limit);
}

/**
 * Contacts per state: everyone's from contact_state_counts (decision 0030),
 * a member's or nobody's through contacts_member_state_idx (index-only).
 */
async function countsOf(db: Queryable, scope: PipelineScope): Promise<Record<ContactState, number>> {
  const counts = Object.fromEntries(CONTACT_STATES.map((state) => [state, 0])) as Record<ContactState, number>;
  const values: unknown[] = [];
  const { rows } = await db.query<{ state: ContactState; n: string }>(
    scope.assigned === 'all'
      ? 'SELECT state, contacts AS n FROM contact_state_counts'
      : `SELECT c.state, count(*) AS n FROM contacts c WHERE ${scopeCondition(scope, values)} GROUP BY c.state`,
    values,
  );
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}

/**
 * The sum of the values per state and how many contacts have one: per state
 * and model, the deals at the catalogue's price (counted) and the overridden
 * ones (summed), priced here with the catalogue of now. Everyone's from
 * contact_deal_counts (kept by a trigger, migration 0022); a member's or
 * nobody's index-only over contacts_valued_idx.
 */
async function valuesOf(
  db: Queryable,
  scope: PipelineScope,
): Promise<Record<ContactState, { value: number; valued: number }>> {
  const sums = Object.fromEntries(CONTACT_STATES.map((state) => [state, { value: 0, valued: 0 }])) as Record<
    ContactState,
    { value: number; valued: number }
  >;
  const values: unknown[] = [];
  const { rows } = await db.query<{
    state: ContactState;
    model_id: string;
    priced: string;
    overridden: string;
    override_sum: string;
  }>(
    scope.assigned === 'all'
      ? 'SELECT state, model_id, priced, overridden, override_sum FROM contact_deal_counts'
      : `SELECT c.state, coalesce(c.model_id, '') AS model_id,
                count(*) FILTER (WHERE c.estimated_value_mxn IS NULL) AS priced,
                count(c.estimated_value_mxn) AS overridden, coalesce(sum(c.estimated_value_mxn), 0) AS override_sum
         FROM contacts c
         WHERE (c.model_id IS NOT NULL OR c.estimated_value_mxn IS NOT NULL) AND ${scopeCondition(scope, values)}
         GROUP BY c.state, c.model_id`,
    values,
  );
  for (const row of rows) {
    const sum = sums[row.state];
    if (!sum) continue;
    const price = catalogueModel(row.model_id)?.price;
    const priced = price === undefined ? 0 : Number(row.priced);
    sum.value += Number(row.override_sum) + priced * (price ?? 0);
    sum.valued += Number(row.overridden) + priced;
  }
  return sums;
}

/** The five columns: each one's first page, count and sum (three statements, side by side). */
export async function pipelineBoard(db: Queryable, scope: PipelineScope): Promise<PipelineBoard> {
  const values: unknown[] = [];
  const firstPages = CONTACT_STATES.map(
    (state) =>
      `(SELECT '${state}' AS column_state, page.* FROM (${columnSelect(scope, state, null, PIPELINE_PAGE, values)}) page)`,
  ).join(' UNION ALL ');
  const [pages, counts, sums] = await Promise.all([
    db.query<CardRow & { column_state: ContactState }>(firstPages, values),
    countsOf(db, scope),
    valuesOf(db, scope),
  ]);
  return {
    columns: CONTACT_STATES.map((state) => ({
      state,
      ...pageOf(
        pages.rows.filter((row) => row.column_state === state),
        PIPELINE_PAGE,
      ),
      total: counts[state],
      ...sums[state],
    })),
  };
}
