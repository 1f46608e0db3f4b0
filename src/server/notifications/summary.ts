import { UNATTENDED_AFTER_HOURS } from '../../lib/admin/contacts.ts';
import { FORM_TITLES, type LeadForm } from '../../lib/leads/kinds.ts';
import type { Database, Queryable } from '../db/database.ts';
import { everyLeadTable, formOfRow } from '../leads/kinds.ts';
import { enqueueDelivery } from '../outbox/queue.ts';

/** The daily summary goes out at 8:00 in Mérida (UTC-6 all year since 2022). */
export const SUMMARY_HOUR = 8;
const MERIDA = 'America/Merida';

export interface DailySummary {
  /** The Mérida date the summary is sent on (it covers the day before). */
  day: string;
  leads: { createdAt: string; title: string; name: string; phone: string; municipality: string | null }[];
  waiting: { name: string; phone: string; since: string; panel: string }[];
  panel: string;
}

const PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: MERIDA,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** Today's date (YYYY-MM-DD) and hour in Mérida. */
export function meridaClock(now: Date): { day: string; hour: number } {
  const parts = Object.fromEntries(PARTS.formatToParts(now).map((part) => [part.type, part.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/**
 * Queues today's summary once it is 8:00 in Mérida (a later start still sends
 * it the same day); the unique (day, channel) row makes every later call, from
 * any worker, a no-op. Only the e-mail channel carries it.
 */
export async function ensureDailySummary(db: Database, now: Date, emailOn: boolean): Promise<string | null> {
  if (!emailOn) return null;
  const { day, hour } = meridaClock(now);
  if (hour < SUMMARY_HOUR) return null;
  return db.transaction((tx) => enqueueDelivery(tx, 'summary', 'email', day));
}

/** The content of the summary sent on `day`: the leads of the day before, and who still waits. */
export async function dailySummary(db: Queryable, day: string, site: string): Promise<DailySummary> {
  const leads = await db.query<{
    created_at: Date;
    form: string;
    name: string;
    phone: string;
    municipality: string | null;
  }>(
    `WITH bounds AS (
       SELECT (($1::date - 1)::timestamp AT TIME ZONE '${MERIDA}') AS since,
              ($1::date::timestamp AT TIME ZONE '${MERIDA}') AS until
     )
     ${everyLeadTable(
       // A table may have no municipality: read from the row as JSON, it is then null.
       (entry) => `SELECT l.created_at, ${formOfRow(entry)} AS form, l.name, l.phone,
              to_jsonb(l) ->> 'municipality' AS municipality
       FROM ${entry.table} l, bounds WHERE l.created_at >= since AND l.created_at < until`,
     )}
     ORDER BY created_at
     LIMIT 500`,
    [day],
  );
  const waiting = await db.query<{ id: string; name: string; phone: string; created_at: Date }>(
    `SELECT id, name, phone, created_at FROM contacts
     WHERE state = 'nuevo' AND created_at < now() - make_interval(hours => $1)
     ORDER BY created_at LIMIT 200`,
    [UNATTENDED_AFTER_HOURS],
  );
  return {
    day,
    leads: leads.rows.map((row) => ({
      createdAt: new Date(row.created_at).toISOString(),
      title: FORM_TITLES[row.form as LeadForm] ?? row.form,
      name: row.name,
      phone: row.phone,
      municipality: row.municipality,
    })),
    waiting: waiting.rows.map((row) => ({
      name: row.name,
      phone: row.phone,
      since: new Date(row.created_at).toISOString(),
      panel: `${site}/admin/prospecto?id=${row.id}`,
    })),
    panel: `${site}/admin`,
  };
}
