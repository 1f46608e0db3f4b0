import {
  APPOINTMENT_SOURCES,
  type AppointmentSource,
  type Metrics,
  type VisitFigures,
} from '../../lib/admin/contacts.ts';
import { LEAD_FORMS, type LeadForm } from '../../lib/leads/kinds.ts';
import type { Queryable } from '../db/database.ts';
import { everyLeadTable, formOfRow } from '../leads/kinds.ts';
import { overdueCount } from './today.ts';

/** Monday 00:00 of this week in Mérida, as a local timestamp. */
const THIS_WEEK = `date_trunc('week', now() AT TIME ZONE 'America/Merida')`;

/**
 * Weeks are counted from Monday 00:00 in Mérida, 11 weeks before this one: a
 * row's week is its distance from that instant in whole 7-day spans. Mérida
 * keeps UTC-6 all year (no daylight saving since 2015), so this equals the
 * calendar week there, and it costs a subtraction per row instead of a time
 * zone conversion (which was most of the query's time on 70,000 leads).
 */
const SINCE = `WITH since AS MATERIALIZED (
  SELECT (${THIS_WEEK} - make_interval(weeks => $1)) AT TIME ZONE 'America/Merida' AS at)`;
const WEEK_INDEX = (column: string) => `floor(date_part('epoch', ${column} - (SELECT at FROM since)) / 604800)::int`;

/** Leads of the last 12 weeks, in one pass over the covering (created_at) indexes: by week and form, and by campaign. */
const LEADS_BY_WEEK_AND_CAMPAIGN = `${SINCE},
  leads AS (
    ${everyLeadTable(
      (entry) => `SELECT ${formOfRow(entry)} AS form, l.created_at, l.utm_campaign FROM ${entry.table} l
     WHERE l.created_at >= (SELECT at FROM since)`,
    )}
  )
  SELECT ${WEEK_INDEX('created_at')} AS week_index, form, utm_campaign AS campaign,
         GROUPING(utm_campaign) AS by_week, count(*)::int AS n
  FROM leads
  GROUP BY GROUPING SETS ((1, form), (utm_campaign))`;

/**
 * The team's first answer to a contact: the first move out of `nuevo`, or a
 * member's first WhatsApp message the platform accepted (issue #27), whichever
 * came first; a wa.me link pressed is neither.
 */
const FIRST_ANSWER = (alias = '') => `least(${alias}first_moved_at, ${alias}first_replied_at)`;

/** Median hours from the first lead to the team's first answer, by week of the first lead (this and the 4 before). */
const RESPONSE_TIME = `${SINCE}
  SELECT ${WEEK_INDEX('c.created_at')} AS week_index,
         (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ${FIRST_ANSWER('c.')} - c.created_at) / 3600))::float8
           AS median_hours,
         count(*)::int AS contacts
  FROM contacts c
  WHERE c.created_at >= (SELECT at FROM since) AND ${FIRST_ANSWER('c.')} IS NOT NULL
  GROUP BY 1`;

const WITHIN_24H = `
  SELECT count(*)::int AS contacts,
         count(*) FILTER (WHERE ${FIRST_ANSWER()} <= created_at + interval '24 hours')::int AS within
  FROM contacts
  WHERE created_at >= now() - interval '28 days' AND created_at <= now() - interval '24 hours'`;

const UNATTENDED = `
  SELECT count(*)::int AS unattended FROM contacts
  WHERE state = 'nuevo' AND first_replied_at IS NULL AND created_at < now() - interval '24 hours'`;

/**
 * Visits and consultations of the same 12 weeks (issue #40, decision 0062),
 * the team's, by adviser and by source in one pass: booked in the period
 * (whatever became of them), and of those whose start fell in it, held,
 * missed and still unmarked (past, still confirmed).
 */
const VISITS = `${SINCE},
  counted AS (
    SELECT a.member_id, a.source,
           count(*) FILTER (WHERE a.created_at >= (SELECT at FROM since))::int AS booked,
           count(*) FILTER (WHERE a.starts_at >= (SELECT at FROM since) AND a.status = 'asistio')::int AS held,
           count(*) FILTER (WHERE a.starts_at >= (SELECT at FROM since) AND a.status = 'no_asistio')::int AS no_shows,
           count(*) FILTER (WHERE a.starts_at >= (SELECT at FROM since) AND a.starts_at <= now()
                              AND a.status = 'confirmada')::int AS pending,
           GROUPING(a.member_id) AS all_members, GROUPING(a.source) AS all_sources
    FROM appointments a
    WHERE a.created_at >= (SELECT at FROM since) OR a.starts_at >= (SELECT at FROM since)
    GROUP BY GROUPING SETS ((), (a.member_id), (a.source))
  )
  SELECT counted.*, coalesce(u.name, u.email) AS member_name
  FROM counted LEFT JOIN users u ON u.id = counted.member_id`;

interface VisitRow {
  member_id: string | null;
  source: AppointmentSource | null;
  booked: number;
  held: number;
  no_shows: number;
  pending: number;
  all_members: number;
  all_sources: number;
  member_name: string | null;
}

const figuresOf = (row: VisitRow | undefined): VisitFigures => {
  const { booked = 0, held = 0, no_shows: noShows = 0, pending = 0 } = row ?? {};
  return {
    booked,
    held,
    noShows,
    pending,
    noShowRate: held + noShows === 0 ? null : Math.round((noShows / (held + noShows)) * 1000) / 1000,
  };
};

function visitsOf(rows: readonly VisitRow[]): Metrics['visits'] {
  const byAdviser = rows
    .filter((row) => row.all_members === 0)
    .map((row) => ({
      memberId: row.member_id,
      name: row.member_id === null ? 'Sin asesor' : (row.member_name ?? 'Miembro eliminado'),
      ...figuresOf(row),
    }))
    .sort((a, b) => b.booked - a.booked || b.held - a.held || a.name.localeCompare(b.name, 'es'));
  const bySource = APPOINTMENT_SOURCES.map((source) => ({
    source,
    ...figuresOf(rows.find((row) => row.all_sources === 0 && row.source === source)),
  }));
  return {
    totals: figuresOf(rows.find((row) => row.all_members === 1 && row.all_sources === 1)),
    byAdviser,
    bySource,
  };
}

/**
 * The payments of the last 12 weeks (issue #41) by status, and the people who paid who have won a deal since. Paid
 * and collected, as in "Pagos": a payment whose refund was asked is not counted as kept.
 */
const PAYMENTS = `SELECT count(*) FILTER (WHERE p.status = 'pagado' AND p.refund_requested_at IS NULL)::int AS paid,
    count(*) FILTER (WHERE p.status = 'pendiente')::int AS pending,
    count(*) FILTER (WHERE p.status = 'vencido')::int AS expired,
    count(*) FILTER (WHERE p.status = 'reembolsado')::int AS refunded,
    coalesce(sum(p.amount_mxn) FILTER (WHERE p.status = 'pagado' AND p.refund_requested_at IS NULL), 0)::int AS "paidMxn",
    count(DISTINCT p.contact_id) FILTER (WHERE p.status = 'pagado')::int AS "paidContacts",
    count(DISTINCT p.contact_id) FILTER (WHERE p.status = 'pagado' AND c.state = 'cerrado_ganado')::int AS won
  FROM payments p JOIN contacts c ON c.id = p.contact_id
  WHERE p.created_at >= (${THIS_WEEK} - interval '11 weeks') AT TIME ZONE 'America/Merida'`;

/** The 12 Mondays (YYYY-MM-DD) up to this week's, in Mérida. */
const WEEKS = `SELECT to_char(week, 'YYYY-MM-DD') AS week
  FROM generate_series(${THIS_WEEK} - interval '11 weeks', ${THIS_WEEK}, interval '1 week') AS g(week)`;

/**
 * The panel shows these figures beside live ones (the header's count of
 * requests, the list of contacts), so nothing is kept once computed: a lead
 * stored before the panel asked is in both (decision 0033; a minute's cache
 * once showed "0" beside "2 solicitudes"). It costs 50-100 ms of database
 * work on 300,000 leads; requests that arrive while a computation runs share
 * it, so an answer is at most one computation older than its request: the
 * same order as the gap between the panel's own two requests, which no
 * server can close.
 */
let computing: Promise<Metrics> | undefined;

export function currentMetrics(db: Queryable): Promise<Metrics> {
  if (computing) return computing;
  const value = metrics(db);
  computing = value;
  const done = () => {
    if (computing === value) computing = undefined;
  };
  value.then(done, done);
  return value;
}

export async function metrics(db: Queryable): Promise<Metrics> {
  const [weeks, leads, response, within, unattended, overdue, visits, payments] = await Promise.all([
    db.query<{ week: string }>(WEEKS),
    db.query<{ week_index: number | null; form: LeadForm | null; campaign: string | null; by_week: number; n: number }>(
      LEADS_BY_WEEK_AND_CAMPAIGN,
      [11],
    ),
    db.query<{ week_index: number; median_hours: number; contacts: number }>(RESPONSE_TIME, [4]),
    db.query<{ contacts: number; within: number }>(WITHIN_24H),
    db.query<{ unattended: number }>(UNATTENDED),
    // The team's "Vencidos": the statement of the figure of "Hoy" and of the badge (decision 0053).
    overdueCount(db, { scope: 'all', memberId: '' }),
    db.query<VisitRow>(VISITS, [11]),
    db.query<Omit<Metrics['payments'], 'conversion'>>(PAYMENTS),
  ]);

  const zero = () => Object.fromEntries(LEAD_FORMS.map((form) => [form, 0])) as Record<LeadForm, number>;
  const leadsPerWeek = weeks.rows.map((row) => ({ week: row.week, counts: zero() }));
  const byCampaign: Metrics['byCampaign'] = [];
  for (const row of leads.rows) {
    if (row.by_week === 1) {
      const week = row.week_index === null ? undefined : leadsPerWeek[row.week_index];
      if (week && row.form) week.counts[row.form] += row.n;
    } else {
      byCampaign.push({ campaign: row.campaign, leads: row.n });
    }
  }
  byCampaign.sort((a, b) => b.leads - a.leads || (a.campaign ?? '\uffff').localeCompare(b.campaign ?? '\uffff'));
  const byForm = zero();
  for (const { counts } of leadsPerWeek) for (const form of LEAD_FORMS) byForm[form] += counts[form];
  const medians = new Map(response.rows.map((row) => [row.week_index, row]));
  const window = within.rows[0] ?? { contacts: 0, within: 0 };

  return {
    computedAt: new Date().toISOString(),
    leadsPerWeek,
    responseTime: leadsPerWeek.slice(-5).map(({ week }, index) => {
      const row = medians.get(index);
      return {
        week,
        medianHours: row ? Math.round(row.median_hours * 10) / 10 : null,
        contacts: row?.contacts ?? 0,
      };
    }),
    contactedWithin24h: {
      share: window.contacts === 0 ? null : Math.round((window.within / window.contacts) * 1000) / 1000,
      contacts: window.contacts,
    },
    byCampaign: byCampaign.slice(0, 10),
    byForm,
    unattended: unattended.rows[0]?.unattended ?? 0,
    overdue,
    visits: visitsOf(visits.rows),
    payments: paymentsOf(payments.rows[0]),
  };
}

function paymentsOf(row: Omit<Metrics['payments'], 'conversion'> | undefined): Metrics['payments'] {
  const figures = row ?? { paid: 0, pending: 0, expired: 0, refunded: 0, paidMxn: 0, paidContacts: 0, won: 0 };
  return {
    ...figures,
    conversion: figures.paidContacts === 0 ? null : Math.round((figures.won / figures.paidContacts) * 1000) / 1000,
  };
}
