import type { ContactDetail, TimelineEntry } from '../../lib/admin/contacts.ts';
import { columnLabel, type LeadRow, shownValue } from '../../lib/leads/columns.ts';
import { LEAD_KINDS_BY_FORM, type LeadKind, leadForm } from '../../lib/leads/kinds.ts';
import type { Queryable } from '../db/database.ts';
import { CONTACT_MARKETING_CONSENT, LAST_ANSWER_IS_NO } from '../leads/consent.ts';
import { deliveriesOfLeads } from '../outbox/deliveries.ts';
import { callLinesOfContact, callsOfContact } from '../voice/call-store.ts';
import { ASSIGNED_COLUMNS, type SummaryRow, toSummary } from './list.ts';
import { NEXT_CONTACT } from './next-contact.ts';

/** At the same instant a request comes first: the reopening it caused follows it. */
const TYPE_ORDER: Record<TimelineEntry['type'], number> = { request: 0, call: 0, event: 1, note: 2 };

/** A contact with everything that happened to it, oldest first; null when there is no such contact. */
export async function getContact(db: Queryable, id: string): Promise<ContactDetail | null> {
  const { rows } = await db.query<
    SummaryRow & {
      first_touch: Record<string, string>;
      last_touch: Record<string, string>;
      model_id: string | null;
      estimated_value_mxn: number | null;
      expected_close_on: string | null;
      marketing_consent: boolean;
      marketing_opposed: boolean;
    }
  >(
    `SELECT c.id, c.name, c.phone, c.email, c.municipality, c.is_buyer, c.is_partner, c.state, c.lost_reason,
            ${NEXT_CONTACT} AS next_contact_at, c.attempts, c.created_at, c.last_activity_at,
            c.first_touch ->> 'utm_campaign' AS first_campaign, c.version, c.first_touch, c.last_touch, c.first_replied_at,
            c.model_id, c.estimated_value_mxn, to_char(c.expected_close_on, 'YYYY-MM-DD') AS expected_close_on,
            ${ASSIGNED_COLUMNS}, ${CONTACT_MARKETING_CONSENT} AS marketing_consent, ${LAST_ANSWER_IS_NO} AS marketing_opposed,
            '' AS cursor_at, 0 AS requests
     FROM contacts c WHERE c.id = $1`,
    [id],
  );
  const contact = rows[0];
  if (!contact) return null;

  const [requests, events, notes, calls, callLines] = await Promise.all([
    // The requests of every form, then their deliveries in one query.
    Promise.all(
      LEAD_KINDS_BY_FORM.map(async ({ table, kind, columns }) => ({
        kind: kind as LeadKind,
        columns,
        rows: (await db.query<LeadRow>(`SELECT * FROM ${table} WHERE contact_id = $1 ORDER BY created_at`, [id])).rows,
      })),
    ).then(async (byForm) => {
      const deliveries = await deliveriesOfLeads(
        db,
        null,
        byForm.flatMap(({ rows }) => rows.map((row) => row.id)),
      );
      return byForm.map(({ kind, columns, rows }) =>
        rows.map(
          (row): TimelineEntry => ({
            type: 'request',
            at: new Date(row.created_at).toISOString(),
            form: leadForm(kind, row),
            kind,
            id: row.id,
            deliveries: deliveries[row.id] ?? [],
            fields: columns
              .map((column): [string, string] => [columnLabel(column), shownValue(column, row)])
              .filter(([, value]) => value !== ''),
          }),
        ),
      );
    }),
    db.query<{
      kind: string;
      actor_name: string | null;
      from_value: string | null;
      to_value: string | null;
      detail: string | null;
      created_at: Date;
    }>('SELECT kind, actor_name, from_value, to_value, detail, created_at FROM contact_events WHERE contact_id = $1', [
      id,
    ]),
    db.query<{ id: string; author_id: string | null; author_name: string; body: string; created_at: Date }>(
      'SELECT id, author_id, author_name, body, created_at FROM contact_notes WHERE contact_id = $1 AND deleted_at IS NULL',
      [id],
    ),
    callsOfContact(db, id),
    callLinesOfContact(db, id),
  ]);

  const timeline: TimelineEntry[] = [
    ...requests.flat(),
    ...events.rows.map(
      (event): TimelineEntry => ({
        type: 'event',
        at: new Date(event.created_at).toISOString(),
        kind: event.kind,
        actor: event.actor_name,
        from: event.from_value,
        to: event.to_value,
        ...(event.kind === 'outcome' ||
        event.kind === 'appointment_message' ||
        event.kind === 'payment' ||
        event.kind === 'reopened'
          ? { detail: event.detail }
          : {}),
      }),
    ),
    ...notes.rows.map(
      (note): TimelineEntry => ({
        type: 'note',
        at: new Date(note.created_at).toISOString(),
        id: note.id,
        author: note.author_name,
        authorId: note.author_id,
        body: note.body,
      }),
    ),
    ...calls.map(
      (call): TimelineEntry => ({
        type: 'call',
        at: call.at,
        id: call.id,
        durationSeconds: call.durationSeconds,
        endedReason: call.endedReason,
        summary: call.summary,
        inProgress: call.inProgress,
      }),
    ),
    // During a call (issue #42): its status as it ran and what the agent did, with what it answered.
    ...callLines.map(
      (line): TimelineEntry => ({
        type: 'event',
        at: line.at,
        kind: line.kind === 'tool' ? 'voice_tool' : 'voice_status',
        actor: null,
        from: null,
        to: line.name,
        detail: line.kind === 'tool' ? line.result : null,
      }),
    ),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : TYPE_ORDER[a.type] - TYPE_ORDER[b.type]));

  return {
    ...toSummary({ ...contact, requests: requests.flat().length }),
    modelId: contact.model_id,
    estimatedValue: contact.estimated_value_mxn,
    expectedCloseOn: contact.expected_close_on,
    marketingConsent: contact.marketing_consent,
    marketingOpposed: contact.marketing_opposed,
    firstTouch: contact.first_touch,
    lastTouch: contact.last_touch,
    timeline,
  };
}
