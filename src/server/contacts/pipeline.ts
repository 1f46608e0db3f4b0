import { catalogueModel, dealValue } from '../../lib/admin/catalogue.ts';
import { CONTACT_STATES, type ContactState } from '../../lib/admin/contacts.ts';
import {
  PIPELINE_PAGE,
  type PipelineBoard,
  type PipelineCard,
  type PipelineColumnPage,
} from '../../lib/admin/pipeline.ts';
import { type Cursor, cursorTime, encodeCursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { ASSIGNED_COLUMNS, type SummaryRow, toSummary } from './list.ts';
import { NEXT_CONTACT } from './next-contact.ts';

/**
 * The pipeline ("Embudo", decision 0041): per state, its contacts latest
 * activity first (Prospectos' order), its count and the sum of its deals'
 * values: a contact's override, else its model's catalogue price
 * (lib/admin/catalogue.ts, applied when the board is read, so a price changed
 * in src/data/models.json counts at once, without a migration).
 */

/**
 * Whose contacts: everyone's (as Prospectos shows every member), one member's,
 * or nobody's; and, when given, only those whose first touch came from this
 * source and campaign (issue #43).
 */
export type PipelineScope = ({ assigned: 'all' } | { assigned: 'none' } | { assigned: 'member'; id: string }) & {
  source?: string;
  campaign?: string;
};

const ORDER = 'c.last_activity_at';

type CardRow = SummaryRow & {
  model_id: string | null;
  estimated_value_mxn: number | null;
  expected_close_on: string | null;
  paid_mxn: number;
};

/** The scope as a condition, its value pushed on `values` when it has one. */
function scopeCondition(scope: PipelineScope, values: unknown[]): string {
  const where: string[] = [];
  if (scope.assigned === 'none') where.push('c.assigned_to IS NULL');
  if (scope.assigned === 'member') {
    values.push(scope.id);
    where.push(`c.assigned_to = $${values.length}`);
  }
  if (scope.source) {
    values.push(scope.source);
    where.push(`c.first_source = $${values.length}`);
  }
  if (scope.campaign) {
    values.push(scope.campaign);
    // The expression Prospectos filters by, and its index (contacts_campaign_idx).
    where.push(`c.first_touch ->> 'utm_campaign' = $${values.length}`);
  }
  return where.length ? where.join(' AND ') : 'TRUE';
}

/** Everyone's, unfiltered: the counts kept by triggers answer it. */
const everyone = (scope: PipelineScope) => scope.assigned === 'all' && !scope.source && !scope.campaign;

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
  return `SELECT ${CARD_COLUMNS} FROM contacts c WHERE ${where.join(' AND ')}
          ORDER BY ${ORDER} DESC, c.id DESC LIMIT $${values.length}`;
}

/** The list's columns (list.ts) without the count of requests (the card does not show it), and the deal. */
const CARD_COLUMNS = `
  c.id, c.name, c.phone, c.email, c.municipality, c.is_buyer, c.is_partner, c.state, c.lost_reason,
  ${NEXT_CONTACT} AS next_contact_at, c.attempts, c.created_at, c.last_activity_at,
  c.first_touch ->> 'utm_campaign' AS first_campaign, c.version, ${ASSIGNED_COLUMNS}, 0 AS requests,
  ${cursorTime(ORDER)}, c.model_id, c.estimated_value_mxn, to_char(c.expected_close_on, 'YYYY-MM-DD') AS expected_close_on,
  (SELECT coalesce(sum(p.amount_mxn), 0)::int FROM payments p WHERE p.contact_id = c.id AND p.status = 'pagado'
     AND p.refund_requested_at IS NULL) AS paid_mxn`;

function toCard(row: CardRow): PipelineCard {
  const deal = { modelId: row.model_id, estimatedValue: row.estimated_value_mxn };
  const { requests: _notShown, ...summary } = toSummary(row);
  return {
    ...summary,
    ...deal,
    expectedCloseOn: row.expected_close_on,
    modelName: catalogueModel(row.model_id)?.name ?? null,
    value: dealValue(deal),
    paid: Number(row.paid_mxn),
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

type Figures = Record<ContactState, { total: number; value: number; valued: number }>;

/**
 * Each state's count and the sum of its values, in one statement: per state
 * and model, the deals at the catalogue's price (counted) and those with their
 * own value (summed), priced here with the catalogue of now. Everyone's from
 * contact_state_counts and contact_deal_counts (kept by triggers, migrations
 * 0004 and 0022); a member's or nobody's index-only over
 * contacts_member_deals_idx (a few thousand entries).
 */
async function figuresOf(db: Queryable, scope: PipelineScope): Promise<Figures> {
  const figures = Object.fromEntries(
    CONTACT_STATES.map((state) => [state, { total: 0, value: 0, valued: 0 }]),
  ) as Figures;
  const values: unknown[] = [];
  const { rows } = await db.query<{
    state: ContactState;
    /** Everyone's: the state's total (on each of its rows); a member's: the contacts of the row's model. */
    n: string;
    model_id: string | null;
    priced: string | null;
    overridden: string | null;
    override_sum: string | null;
  }>(
    everyone(scope)
      ? `SELECT s.state, s.contacts AS n, d.model_id, d.priced, d.overridden, d.override_sum
         FROM contact_state_counts s LEFT JOIN contact_deal_counts d ON d.state = s.state`
      : `SELECT c.state, count(*) AS n, coalesce(c.model_id, '') AS model_id,
                count(*) FILTER (WHERE c.model_id IS NOT NULL AND c.estimated_value_mxn IS NULL) AS priced,
                count(c.estimated_value_mxn) AS overridden, coalesce(sum(c.estimated_value_mxn), 0) AS override_sum
         FROM contacts c WHERE ${scopeCondition(scope, values)}
         GROUP BY c.state, c.model_id`,
    values,
  );
  for (const row of rows) {
    const figure = figures[row.state];
    if (!figure) continue;
    if (everyone(scope)) figure.total = Number(row.n);
    else figure.total += Number(row.n);
    const price = catalogueModel(row.model_id)?.price;
    const priced = price === undefined ? 0 : Number(row.priced ?? 0);
    figure.value += Number(row.override_sum ?? 0) + priced * (price ?? 0);
    figure.valued += Number(row.overridden ?? 0) + priced;
  }
  return figures;
}

/** The seven columns (one per state): each one's first page, count and sum (two statements, side by side). */
export async function pipelineBoard(db: Queryable, scope: PipelineScope): Promise<PipelineBoard> {
  const values: unknown[] = [];
  const firstPages = CONTACT_STATES.map(
    (state) =>
      `(SELECT '${state}' AS column_state, page.* FROM (${columnSelect(scope, state, null, PIPELINE_PAGE, values)}) page)`,
  ).join(' UNION ALL ');
  const [pages, figures] = await Promise.all([
    db.query<CardRow & { column_state: ContactState }>(firstPages, values),
    figuresOf(db, scope),
  ]);
  return {
    columns: CONTACT_STATES.map((state) => ({
      state,
      ...pageOf(
        pages.rows.filter((row) => row.column_state === state),
        PIPELINE_PAGE,
      ),
      ...figures[state],
    })),
  };
}
