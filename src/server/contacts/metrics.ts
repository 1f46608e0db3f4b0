import { LEAD_FORMS, type LeadForm, type Metrics } from '../../lib/admin/contacts.ts';
import type { Queryable } from '../db/database.ts';

const LEADS = `
  SELECT 'cotizacion_rapida' AS form, created_at, utm_campaign FROM cotizaciones_rapidas
  UNION ALL SELECT source, created_at, utm_campaign FROM quote_requests
  UNION ALL SELECT 'socios', created_at, utm_campaign FROM partner_applications`;

/** Monday of this week in Mérida, as a local date; `weeks` back from it. */
const WEEK_START = `(date_trunc('week', now() AT TIME ZONE 'America/Merida') - make_interval(weeks => $1))`;

export async function metrics(db: Queryable): Promise<Metrics> {
  const [weekly, response, within, campaigns, attention] = await Promise.all([
    db.query<{ week: string; form: LeadForm; n: number }>(
      `SELECT to_char(w.week, 'YYYY-MM-DD') AS week, l.form, count(l.form)::int AS n
       FROM generate_series(${WEEK_START}, date_trunc('week', now() AT TIME ZONE 'America/Merida'), interval '1 week') AS w(week)
       LEFT JOIN (${LEADS}) l
         ON l.created_at >= (w.week AT TIME ZONE 'America/Merida')
        AND l.created_at < ((w.week + interval '1 week') AT TIME ZONE 'America/Merida')
       GROUP BY w.week, l.form ORDER BY w.week`,
      [11],
    ),
    db.query<{ week: string; median_hours: number | null; contacts: number }>(
      `SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
              (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM c.first_moved_at - c.created_at) / 3600))::float8 AS median_hours,
              count(c.id)::int AS contacts
       FROM generate_series(${WEEK_START}, date_trunc('week', now() AT TIME ZONE 'America/Merida'), interval '1 week') AS w(week)
       LEFT JOIN contacts c
         ON c.first_moved_at IS NOT NULL
        AND c.created_at >= (w.week AT TIME ZONE 'America/Merida')
        AND c.created_at < ((w.week + interval '1 week') AT TIME ZONE 'America/Merida')
       GROUP BY w.week ORDER BY w.week`,
      [4],
    ),
    db.query<{ contacts: number; within: number }>(
      `SELECT count(*)::int AS contacts,
              count(*) FILTER (WHERE first_moved_at <= created_at + interval '24 hours')::int AS within
       FROM contacts
       WHERE created_at >= now() - interval '28 days' AND created_at <= now() - interval '24 hours'`,
    ),
    db.query<{ campaign: string | null; n: number }>(
      `SELECT utm_campaign AS campaign, count(*)::int AS n FROM (${LEADS}) l
       WHERE l.created_at >= (${WEEK_START} AT TIME ZONE 'America/Merida')
       GROUP BY utm_campaign ORDER BY n DESC, utm_campaign NULLS LAST LIMIT 10`,
      [11],
    ),
    db.query<{ unattended: number; overdue: number }>(
      `SELECT count(*) FILTER (WHERE state = 'nuevo' AND created_at < now() - interval '24 hours')::int AS unattended,
              count(*) FILTER (WHERE next_contact_on < (now() AT TIME ZONE 'America/Merida')::date
                               AND state NOT IN ('cerrado_ganado', 'cerrado_perdido'))::int AS overdue
       FROM contacts
       WHERE state = 'nuevo' OR next_contact_on IS NOT NULL`,
    ),
  ]);

  const zero = () => Object.fromEntries(LEAD_FORMS.map((form) => [form, 0])) as Record<LeadForm, number>;
  const weeks = new Map<string, Record<LeadForm, number>>();
  for (const row of weekly.rows) {
    const counts = weeks.get(row.week) ?? zero();
    if (row.form) counts[row.form] = row.n;
    weeks.set(row.week, counts);
  }
  const byForm = zero();
  for (const counts of weeks.values()) for (const form of LEAD_FORMS) byForm[form] += counts[form];
  const window = within.rows[0] ?? { contacts: 0, within: 0 };

  return {
    leadsPerWeek: [...weeks].map(([week, counts]) => ({ week, counts })),
    responseTime: response.rows.map((row) => ({
      week: row.week,
      medianHours: row.median_hours === null ? null : Math.round(row.median_hours * 10) / 10,
      contacts: row.contacts,
    })),
    contactedWithin24h: {
      share: window.contacts === 0 ? null : Math.round((window.within / window.contacts) * 1000) / 1000,
      contacts: window.contacts,
    },
    byCampaign: campaigns.rows.map((row) => ({ campaign: row.campaign, leads: row.n })),
    byForm,
    unattended: attention.rows[0]?.unattended ?? 0,
    overdue: attention.rows[0]?.overdue ?? 0,
  };
}
