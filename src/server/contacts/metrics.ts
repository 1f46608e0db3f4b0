import { LEAD_FORMS, type LeadForm, type Metrics } from '../../lib/admin/contacts.ts';
import type { Queryable } from '../db/database.ts';

/** Monday 00:00 of this week in Mérida, as a local timestamp. */
const THIS_WEEK = `date_trunc('week', now() AT TIME ZONE 'America/Merida')`;

/**
 * Leads of the last 12 weeks, in one pass over the covering (created_at)
 * indexes: counted by week and form, and by campaign (GROUPING SETS).
 */
const LEADS_BY_WEEK_AND_CAMPAIGN = `
  WITH since AS MATERIALIZED (SELECT (${THIS_WEEK} - interval '11 weeks') AT TIME ZONE 'America/Merida' AS at),
  leads AS (
    SELECT 'cotizacion_rapida' AS form, created_at, utm_campaign FROM cotizaciones_rapidas
     WHERE created_at >= (SELECT at FROM since)
    UNION ALL
    SELECT source, created_at, utm_campaign FROM quote_requests WHERE created_at >= (SELECT at FROM since)
    UNION ALL
    SELECT 'socios', created_at, utm_campaign FROM partner_applications WHERE created_at >= (SELECT at FROM since)
  )
  SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'America/Merida'), 'YYYY-MM-DD') AS week,
         form, utm_campaign AS campaign, GROUPING(utm_campaign) AS by_week, count(*)::int AS n
  FROM leads
  GROUP BY GROUPING SETS ((date_trunc('week', created_at AT TIME ZONE 'America/Merida'), form), (utm_campaign))`;

/** Median hours to the first move out of `nuevo`, by week of the first lead (boundaries computed once). */
const RESPONSE_TIME = `
  WITH w AS MATERIALIZED (
    SELECT week, week AT TIME ZONE 'America/Merida' AS starts, (week + interval '1 week') AT TIME ZONE 'America/Merida' AS ends
    FROM generate_series(${THIS_WEEK} - interval '4 weeks', ${THIS_WEEK}, interval '1 week') AS g(week)
  )
  SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
         (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_moved_at - c.created_at) / 3600))::float8
           AS median_hours,
         count(c.id)::int AS contacts
  FROM w LEFT JOIN contacts c
    ON c.created_at >= w.starts AND c.created_at < w.ends AND c.first_moved_at IS NOT NULL
  GROUP BY w.week ORDER BY w.week`;

const WITHIN_24H = `
  SELECT count(*)::int AS contacts,
         count(*) FILTER (WHERE first_moved_at <= created_at + interval '24 hours')::int AS within
  FROM contacts
  WHERE created_at >= now() - interval '28 days' AND created_at <= now() - interval '24 hours'`;

const ATTENTION = `
  SELECT (SELECT count(*) FROM contacts WHERE state = 'nuevo' AND created_at < now() - interval '24 hours')::int
           AS unattended,
         (SELECT count(*) FROM contacts
           WHERE next_contact_on < (now() AT TIME ZONE 'America/Merida')::date
             AND state NOT IN ('cerrado_ganado', 'cerrado_perdido'))::int AS overdue`;

/** The 12 Mondays (YYYY-MM-DD) up to this week's, in Mérida. */
const WEEKS = `SELECT to_char(week, 'YYYY-MM-DD') AS week
  FROM generate_series(${THIS_WEEK} - interval '11 weeks', ${THIS_WEEK}, interval '1 week') AS g(week)`;

export async function metrics(db: Queryable): Promise<Metrics> {
  const [weeks, leads, response, within, attention] = await Promise.all([
    db.query<{ week: string }>(WEEKS),
    db.query<{ week: string | null; form: LeadForm | null; campaign: string | null; by_week: number; n: number }>(
      LEADS_BY_WEEK_AND_CAMPAIGN,
    ),
    db.query<{ week: string; median_hours: number | null; contacts: number }>(RESPONSE_TIME),
    db.query<{ contacts: number; within: number }>(WITHIN_24H),
    db.query<{ unattended: number; overdue: number }>(ATTENTION),
  ]);

  const zero = () => Object.fromEntries(LEAD_FORMS.map((form) => [form, 0])) as Record<LeadForm, number>;
  const perWeek = new Map(weeks.rows.map((row) => [row.week, zero()]));
  const byCampaign: Metrics['byCampaign'] = [];
  for (const row of leads.rows) {
    if (row.by_week === 1) {
      const counts = row.week ? perWeek.get(row.week) : undefined;
      if (counts && row.form) counts[row.form] += row.n;
    } else {
      byCampaign.push({ campaign: row.campaign, leads: row.n });
    }
  }
  byCampaign.sort((a, b) => b.leads - a.leads || (a.campaign ?? '\uffff').localeCompare(b.campaign ?? '\uffff'));
  const byForm = zero();
  for (const counts of perWeek.values()) for (const form of LEAD_FORMS) byForm[form] += counts[form];
  const window = within.rows[0] ?? { contacts: 0, within: 0 };

  return {
    leadsPerWeek: [...perWeek].map(([week, counts]) => ({ week, counts })),
    responseTime: response.rows.map((row) => ({
      week: row.week,
      medianHours: row.median_hours === null ? null : Math.round(row.median_hours * 10) / 10,
      contacts: row.contacts,
    })),
    contactedWithin24h: {
      share: window.contacts === 0 ? null : Math.round((window.within / window.contacts) * 1000) / 1000,
      contacts: window.contacts,
    },
    byCampaign: byCampaign.slice(0, 10),
    byForm,
    unattended: attention.rows[0]?.unattended ?? 0,
    overdue: attention.rows[0]?.overdue ?? 0,
  };
}
