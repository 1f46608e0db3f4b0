import type {
  CampaignFigures,
  CampaignLevel,
  CampaignQuery,
  CampaignReport,
  CampaignRow,
  Spend,
} from '../../lib/admin/campaigns.ts';
import { CATALOGUE_MODELS } from '../../lib/admin/catalogue.ts';
import type { Queryable } from '../db/database.ts';
import { LEAD_TABLES } from '../leads/kinds.ts';
import { wallClockInstant } from '../wall-clock.ts';

/**
 * The campaign report (issue #43, decision 0072): the people whose first
 * lead arrived in the chosen months of Mérida (the same instants as the
 * list's from/to), grouped by their first touch, with what became of them.
 * One statement: the cohort by the contacts' creation time, each outcome
 * counted per person from the first month on (a person's requests,
 * appointments and payments never come before their first lead), then
 * joined to it by hash (bench:campaigns).
 */

const KEYS: Record<CampaignLevel, string[]> = {
  source: ['source'],
  campaign: ['source', 'campaign'],
  ad: ['source', 'campaign', 'ad'],
};

/**
 * The first instant of a month of Mérida's calendar ("2026-11"; the month after it with `after`), computed
 * here and sent as a timestamptz: as SQL (`AT TIME ZONE` is only stable) PostgreSQL computed it again for
 * every row it filtered, a third of the report's time, and could not plan with its value (bench:campaigns).
 */
export function meridaMonthStart(month: string, after = 0): Date {
  const [year = 1970, number = 1] = month.split('-').map(Number);
  return new Date(wallClockInstant(year, number - 1 + after, 1, 0, 'America/Merida'));
}

export function reportQuery(level: CampaignLevel): string {
  const keys = KEYS[level];
  const nulls = (['source', 'campaign', 'ad'] as const)
    .map((key) => (keys.includes(key) ? `c.${key}` : `NULL::text AS ${key}`))
    .join(', ');
  return `WITH cohort AS (
    SELECT c.id, c.state, c.model_id, c.estimated_value_mxn,
           (c.first_moved_at IS NOT NULL OR c.first_replied_at IS NOT NULL) AS answered,
           c.first_source AS source, c.first_campaign AS campaign, c.first_ad AS ad
    FROM contacts c
    WHERE c.created_at >= $1 AND c.created_at < $2),
  -- A person's leads come at or after their first: those since the first month are all the cohort's.
  leads AS (
    SELECT contact_id, count(*) AS n FROM (
      ${LEAD_TABLES.map((table) => `SELECT contact_id FROM ${table} WHERE created_at >= $1`).join(' UNION ALL ')}
    ) AS l GROUP BY contact_id),
  visits AS (
    SELECT contact_id, count(*) AS booked, count(*) FILTER (WHERE status = 'asistio') AS held
    FROM appointments WHERE created_at >= $1 GROUP BY contact_id),
  paid AS (
    SELECT contact_id, count(*) AS n FROM payments
    WHERE status = 'pagado' AND refund_requested_at IS NULL AND created_at >= $1 GROUP BY contact_id)
  SELECT ${nulls},
         coalesce(sum(l.n), 0)::int AS leads, count(*)::int AS contacts,
         count(*) FILTER (WHERE c.answered)::int AS first_replies,
         coalesce(sum(v.booked), 0)::int AS visits_booked, coalesce(sum(v.held), 0)::int AS visits_held,
         coalesce(sum(p.n), 0)::int AS consultations_paid,
         count(*) FILTER (WHERE c.state = 'cerrado_ganado')::int AS won,
         coalesce(sum(coalesce(c.estimated_value_mxn, ($3::jsonb ->> c.model_id)::int))
           FILTER (WHERE c.state = 'cerrado_ganado'), 0)::bigint AS won_value
  FROM cohort c
  LEFT JOIN leads l ON l.contact_id = c.id
  LEFT JOIN visits v ON v.contact_id = c.id
  LEFT JOIN paid p ON p.contact_id = c.id
  GROUP BY ${keys.map((key) => `c.${key}`).join(', ')}
  ORDER BY contacts DESC, ${keys.map((key) => `c.${key} NULLS LAST`).join(', ')}`;
}

const SPEND = `SELECT source, campaign, sum(amount_mxn)::bigint AS spend FROM campaign_spend
  WHERE month >= ($1 || '-01')::date AND month <= ($2 || '-01')::date GROUP BY source, campaign`;

const CONVERSIONS = `SELECT status, count(*)::int AS n FROM ad_conversions a
  JOIN contacts c ON c.id = a.contact_id
  WHERE c.created_at >= $1 AND c.created_at < $2
  GROUP BY status`;

interface Row {
  source: string | null;
  campaign: string | null;
  ad: string | null;
  leads: number;
  contacts: number;
  first_replies: number;
  visits_booked: number;
  visits_held: number;
  consultations_paid: number;
  won: number;
  won_value: string;
}

const PRICES = JSON.stringify(Object.fromEntries(CATALOGUE_MODELS.map((model) => [model.id, model.price])));

export async function campaignReport(db: Queryable, query: CampaignQuery): Promise<CampaignReport> {
  const level = query.level ?? 'campaign';
  const period = [meridaMonthStart(query.from), meridaMonthStart(query.to, 1)];
  const [figures, spends, conversions] = await Promise.all([
    db.query<Row>(reportQuery(level), [...period, PRICES]),
    db.query<{ source: string; campaign: string; spend: string }>(SPEND, [query.from, query.to]),
    db.query<{ status: string; n: number }>(CONVERSIONS, period),
  ]);
  const spendOf = (row: Row): number | null => {
    if (level === 'ad' || row.source === null) return null;
    const matching = spends.rows.filter(
      (spend) => spend.source === row.source && (level === 'source' || spend.campaign === row.campaign),
    );
    return matching.length ? matching.reduce((sum, spend) => sum + Number(spend.spend), 0) : null;
  };
  const rows: CampaignRow[] = figures.rows.map((row) => ({
    source: row.source,
    campaign: row.campaign,
    ad: row.ad,
    leads: row.leads,
    contacts: row.contacts,
    firstReplies: row.first_replies,
    visitsBooked: row.visits_booked,
    visitsHeld: row.visits_held,
    consultationsPaid: row.consultations_paid,
    won: row.won,
    wonValueMxn: Number(row.won_value),
    spendMxn: spendOf(row),
  }));
  const totalSpend = spends.rows.reduce((sum, spend) => sum + Number(spend.spend), 0);
  const totals: CampaignFigures = {
    leads: 0,
    contacts: 0,
    firstReplies: 0,
    visitsBooked: 0,
    visitsHeld: 0,
    consultationsPaid: 0,
    won: 0,
    wonValueMxn: 0,
    spendMxn: spends.rows.length ? totalSpend : null,
  };
  for (const row of rows) {
    for (const key of Object.keys(totals) as (keyof CampaignFigures)[]) {
      if (key !== 'spendMxn') totals[key] += row[key] as number;
    }
  }
  const count = (status: string) => conversions.rows.find((row) => row.status === status)?.n ?? 0;
  return {
    from: query.from,
    to: query.to,
    level,
    rows,
    totals,
    conversions: {
      noConsent: count('sin_consentimiento'),
      noClickId: count('sin_identificador'),
      failed: count('fallido'),
      sent: count('enviado'),
    },
  };
}

/** Marketing's spend of a campaign in a month: written or replaced. */
export async function saveSpend(db: Queryable, spend: Spend, memberId: string): Promise<void> {
  await db.query(
    `INSERT INTO campaign_spend (source, campaign, month, amount_mxn, updated_by)
     VALUES ($1, $2, ($3 || '-01')::date, $4, $5)
     ON CONFLICT (source, campaign, month) DO UPDATE SET amount_mxn = EXCLUDED.amount_mxn,
       updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [spend.source, spend.campaign, spend.month, spend.amountMxn, memberId],
  );
}
