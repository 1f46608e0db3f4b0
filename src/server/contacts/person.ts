import { counted } from '../../lib/admin/contacts.ts';
import { type Actor, recordActivity } from '../audit/activity.ts';
/**
 * Rights of access and cancellation (ARCO, issue #14): everything stored
 * about one person, and erasing it. A person is a contact: its phone joins
 * every request and call of theirs.
 */
import type { Database, Queryable } from '../db/database.ts';
import { everyLeadTable, LEAD_TABLES } from '../leads/kinds.ts';

/**
 * A call of the person's: theirs by the contact, or by the phone when the call
 * was never joined to a contact. A request or a call joined to another
 * contact is that contact's, whatever phone it carries (a phone corrected
 * away from a number someone else typed, then asked about by its owner).
 */
const CALLS_OF_PERSON = 'contact_id = $1 OR (phone = $2 AND contact_id IS NULL)';

/** Stripe's events about the person's payments, or naming their contact (one not yet joined to a payment). */
const PAYMENT_EVENTS_OF_PERSON = `payment_id IN (SELECT id FROM payments WHERE contact_id = $1)
  OR payload #>> '{data,object,metadata,contact_id}' = $1::text`;

/**
 * Every table that holds a person's rows, and how they are found: by the
 * contact, or also by the phone. The webhook's raw deliveries
 * (whatsapp_webhook_events, kept 30 days) and the statuses waiting for their
 * message (whatsapp_pending_statuses) are not listed: they are our copies of
 * what whatsapp_messages holds, and one delivery may also carry other
 * people's messages. The erasure removes them (below).
 */
const SOURCES = [
  { table: 'contacts', key: 'id', byPhone: false },
  ...LEAD_TABLES.map((table) => ({ table, key: 'contact_id', byPhone: false })),
  { table: 'voice_calls', key: 'contact_id', byPhone: true, where: CALLS_OF_PERSON },
  // What happened during their calls: what the agent's tools were told and answered (issue #42).
  {
    table: 'voice_call_events',
    key: 'call_id',
    byPhone: false,
    where: 'call_id IN (SELECT call_id FROM voice_calls WHERE contact_id = $1)',
    order: 'created_at, id',
  },
  { table: 'contact_notes', key: 'contact_id', byPhone: false },
  { table: 'contact_events', key: 'contact_id', byPhone: false },
  { table: 'notification_deliveries', key: 'contact_id', byPhone: false },
  // Their appointments and what they paid for them (issues #40 and #41).
  { table: 'appointments', key: 'contact_id', byPhone: false },
  { table: 'payments', key: 'contact_id', byPhone: false },
  // Their customers at Stripe, one per person merged into theirs (migration 0057).
  { table: 'contact_payment_customers', key: 'customer', byPhone: false, where: 'contact_id = $1' },
  // Stripe's events about them as received (the payer's name, e-mail and phone; our contact in the metadata).
  {
    table: 'payment_events',
    key: 'event_id',
    byPhone: false,
    where: PAYMENT_EVENTS_OF_PERSON,
    order: 'created_at, event_id',
  },
  { table: 'whatsapp_conversations', key: 'contact_id', byPhone: false },
  {
    table: 'whatsapp_messages',
    key: 'contact_id',
    byPhone: false,
    order: 'created_at, id',
  },
] as const;

export type PersonData = Record<(typeof SOURCES)[number]['table'], Record<string, unknown>[]>;

/** Columns that are ours, not the person's: left out of what they receive. */
const INTERNAL = new Set(['idempotency_key', 'idempotency_fingerprint', 'search_text', 'claim_id', 'version']);
/** The same, for one table only (notification_deliveries' attempts are the person's record of what was sent). */
const INTERNAL_OF: Partial<Record<string, ReadonlySet<string>>> = {
  whatsapp_messages: new Set(['claimed_at', 'attempts']),
};

/**
 * The WhatsApp ids (digits, as the webhook writes `wa_id`, `from` and
 * `recipient_id`) a stored phone may arrive as: a Mexican mobile is
 * +529991234567 for us and 5219991234567 (or 529991234567) for WhatsApp
 * (src/lib/forms/phone.ts normalises both to ours).
 */
export function whatsappIdsOf(phone: string): string[] {
  const digits = phone.replace(/^\+/, '');
  const mexican = /^52([2-9]\d{9})$/.exec(digits)?.[1];
  return mexican ? [digits, `521${mexican}`] : [digits];
}

/** Everything stored about the contact's person, table by table; null when there is no such contact. */
export async function personData(db: Queryable, contactId: string): Promise<PersonData | null> {
  const { rows } = await db.query<{ phone: string }>('SELECT phone FROM contacts WHERE id = $1', [contactId]);
  const phone = rows[0]?.phone;
  if (!phone) return null;
  const tables = await Promise.all(
    SOURCES.map(async (source) => {
      const { table, key, byPhone } = source;
      const order = 'order' in source ? source.order : '1';
      const where = 'where' in source ? source.where : `${key} = $1 ${byPhone ? 'OR phone = $2' : ''}`;
      const found = await db.query<Record<string, unknown>>(
        `SELECT * FROM ${table} WHERE ${where} ORDER BY ${order}`,
        byPhone ? [contactId, phone] : [contactId],
      );
      const omitted = INTERNAL_OF[table];
      return [
        table,
        found.rows.map((row) =>
          Object.fromEntries(Object.entries(row).filter(([key]) => !INTERNAL.has(key) && !omitted?.has(key))),
        ),
      ] as const;
    }),
  );
  return Object.fromEntries(tables) as PersonData;
}

/** The person's data as CSV rows: table, row id, field, value (one line per stored value). */
export function personCsvRows(data: PersonData): string[][] {
  const lines: string[][] = [];
  for (const [table, rows] of Object.entries(data)) {
    for (const row of rows) {
      const id = String(row.id ?? row.contact_id ?? '');
      for (const [field, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const text =
          value instanceof Date
            ? value.toISOString()
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value);
        lines.push([table, id, field, text]);
      }
    }
  }
  return lines;
}

/** What an erasure removed, for the answer and the activity log. */
export interface Erased {
  requests: number;
  calls: number;
  notes: number;
  /** Their WhatsApp messages, theirs and ours (with the conversation, by the contact's cascade). */
  messages: number;
  /** The webhook's raw deliveries that carried their number, and the statuses waiting for a message of theirs. */
  deliveries: number;
}

/**
 * Erases the person in one transaction: their requests, calls, notes,
 * history, notifications and WhatsApp conversation, the webhook's raw
 * deliveries that carried their number, the contact itself; the activity
 * entries that named them keep what was done but not who it was done to.
 * Returns what was erased (for the record), or null when there is no such contact.
 */
export async function erasePerson(db: Database, contactId: string, actor: Actor): Promise<Erased | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ phone: string; name: string }>(
      'SELECT phone, name FROM contacts WHERE id = $1 FOR UPDATE',
      [contactId],
    );
    const contact = rows[0];
    if (!contact) return null;
    const names = await tx.query<{ name: string }>(
      `SELECT DISTINCT name FROM (
         SELECT name FROM contacts WHERE id = $1
         UNION ALL ${everyLeadTable(({ table }) => `SELECT name FROM ${table} WHERE contact_id = $1`)}
         UNION ALL SELECT name FROM voice_calls WHERE (${CALLS_OF_PERSON}) AND name IS NOT NULL
         -- Names it had before a correction, and of the contacts merged into it (decision 0037).
         UNION ALL SELECT from_value FROM contact_events WHERE contact_id = $1 AND kind IN ('name', 'merged')
         -- Other names it gave in a later request or to the team ("También se presentó como …").
         UNION ALL SELECT to_value FROM contact_events WHERE contact_id = $1 AND kind = 'alias'
       ) AS known WHERE char_length(name) >= 2`,
      [contactId, contact.phone],
    );
    // The one path allowed to rewrite activity entries (migration 0012), for this transaction only.
    await tx.query(`SET LOCAL ceiba.erasure = 'on'`);
    // The entries of the contacts merged into this one name them by their own ids.
    const named = await tx.query<{ id: string; summary: string }>(
      `SELECT id, summary FROM activity_log WHERE details ->> 'contact' = $1::text
          OR details ->> 'contact' IN (SELECT detail FROM contact_events WHERE contact_id = $2 AND kind = 'merged')`,
      [contactId, contactId],
    );
    // Longest first: "Ana López Pérez" before "Ana López".
    const known = names.rows.map((row) => row.name).sort((a, b) => b.length - a.length);
    for (const entry of named.rows) {
      const summary = known.reduce((text, name) => text.replaceAll(name, '[persona eliminada]'), entry.summary);
      await tx.query(`UPDATE activity_log SET summary = $2, details = details - 'contact' WHERE id = $1`, [
        entry.id,
        summary,
      ]);
    }
    // An export searched by their name or phone (its filters kept with the entry): the search is theirs too.
    await tx.query(
      `UPDATE activity_log SET details = jsonb_set(details, '{filters,q}', '"[persona eliminada]"')
       WHERE kind = 'export' AND char_length(details #>> '{filters,q}') >= 3
         AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS known (text)
                     WHERE strpos(replace(lower(known.text), ' ', ''), replace(lower(details #>> '{filters,q}'), ' ', '')) > 0)`,
      [[...known, contact.phone, contact.phone.replace(/^\+52/, '')]],
    );
    let requests = 0;
    for (const table of LEAD_TABLES) {
      const deleted = await tx.query(`DELETE FROM ${table} WHERE contact_id = $1`, [contactId]);
      requests += deleted.rowCount ?? 0;
    }
    const calls = await tx.query(`DELETE FROM voice_calls WHERE ${CALLS_OF_PERSON}`, [contactId, contact.phone]);
    const counts = await tx.query<{ notes: number; messages: number }>(
      `SELECT (SELECT count(*)::int FROM contact_notes WHERE contact_id = $1) AS notes,
              (SELECT count(*)::int FROM whatsapp_messages WHERE contact_id = $1) AS messages`,
      [contactId],
    );
    const deliveries = await eraseWhatsappDeliveries(tx, contactId, contact.phone);
    // Stripe's events keep their id (a delivery of one again is still known, and not applied twice) and nothing else.
    await tx.query(
      `UPDATE payment_events SET payload = '{}'::jsonb, payment_id = NULL, applied_at = coalesce(applied_at, now())
       WHERE ${PAYMENT_EVENTS_OF_PERSON}`,
      [contactId],
    );
    // Notes, history, notifications, messages and the conversation go with the contact (ON DELETE CASCADE).
    await tx.query('DELETE FROM contacts WHERE id = $1', [contactId]);
    const erased: Erased = {
      requests,
      calls: calls.rowCount ?? 0,
      notes: counts.rows[0]?.notes ?? 0,
      messages: counts.rows[0]?.messages ?? 0,
      deliveries,
    };
    const whatsapp = erased.messages > 0 ? `, ${counted(erased.messages, 'mensaje', 'mensajes')} de WhatsApp` : '';
    await recordActivity(tx, {
      actor,
      kind: 'person_erased',
      summary: `Eliminó a petición suya todos los datos de una persona: ${counted(erased.requests, 'solicitud', 'solicitudes')}, ${counted(erased.calls, 'llamada', 'llamadas')}${whatsapp} y ${counted(erased.notes, 'nota', 'notas')}`,
      details: { ...erased },
    });
    return erased;
  });
}

/**
 * The webhook's raw deliveries (kept 30 days) that carry the person's number
 * (as `wa_id`, `from` or `recipient_id`: a JSON string of exactly those
 * digits), and the statuses waiting for a message of theirs (found by our id,
 * which statuses echo, or as a status to their number in one of those deliveries).
 * Before the contact's cascade removes the messages they are matched by.
 * A delivery that also carried someone else's message goes whole: it was
 * processed already (its messages are rows of their own), or the erasure
 * wins over a copy not yet read. Returns how many rows went.
 */
async function eraseWhatsappDeliveries(tx: Queryable, contactId: string, phone: string): Promise<number> {
  const { rows } = await tx.query<{ events: number; statuses: number }>(
    `WITH ids AS (
       SELECT array_cat($2::text[], ARRAY(SELECT wa_id FROM whatsapp_conversations
                                           WHERE contact_id = $1 AND wa_id IS NOT NULL)) AS list
     ), events AS (
       DELETE FROM whatsapp_webhook_events e USING ids
        WHERE EXISTS (SELECT 1 FROM unnest(ids.list) AS id WHERE strpos(e.body, '"' || id || '"') > 0)
       RETURNING CASE WHEN pg_input_is_valid(e.body, 'jsonb') THEN e.body::jsonb END AS body
     ), named AS (
       SELECT status ->> 'id' AS wa_message_id
         FROM events, ids, jsonb_path_query(events.body, 'lax $.entry[*].changes[*].value.statuses[*]') AS status
        WHERE status ->> 'recipient_id' = ANY (ids.list)
     ), statuses AS (
       DELETE FROM whatsapp_pending_statuses p
        WHERE p.callback IN (SELECT id::text FROM whatsapp_messages WHERE contact_id = $1)
           OR p.wa_message_id IN (SELECT wa_message_id FROM named)
       RETURNING 1
     )
     SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM statuses) AS statuses`,
    [contactId, (await numbersOf(tx, contactId, phone)).flatMap(whatsappIdsOf)],
  );
  return (rows[0]?.events ?? 0) + (rows[0]?.statuses ?? 0);
}

/**
 * Every phone the person is known by: the contact's, the ones it had before a
 * correction, and those of the contacts merged into it (whose conversations it
 * folded in, keeping one number).
 */
async function numbersOf(tx: Queryable, contactId: string, phone: string): Promise<string[]> {
  const { rows } = await tx.query<{ phone: string }>(
    `SELECT DISTINCT from_value AS phone FROM contact_events
     WHERE contact_id = $1 AND kind = 'phone' AND from_value LIKE '+%'
     UNION SELECT to_value FROM contact_events WHERE contact_id = $1 AND kind = 'merged' AND to_value LIKE '+%'`,
    [contactId],
  );
  return [phone, ...rows.map((row) => row.phone).filter((other) => other !== phone)];
}
