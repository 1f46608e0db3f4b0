import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteAdviser, memberRequest } from '../support/admin.ts';
import { quickQuote } from '../support/payloads.ts';
import type { SmtpReceiver } from '../support/receivers.ts';
import { postJson, type RunningServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import { until } from '../support/until.ts';
import { startVoiceSite, VOICE_SECRET, vapiReport } from '../support/vapi.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';
import { webhookEventsProcessed } from '../support/whatsapp-queue.ts';

/**
 * Issue #38, item 10: "Unir los dos prospectos" keeps everything of both
 * contacts. Two contacts with one of each (a request and its e-mail
 * notification, a call, a WhatsApp message and conversation, a note, an
 * outcome, an attempt, a reminder sent, history lines) are merged; every row
 * of every table that names a contact is counted before and after.
 */
let server: RunningServer;
let smtp: SmtpReceiver;
let admin: string;
let platform: FakePlatform;

beforeAll(async () => {
  platform = await startFakePlatform();
  ({ server, smtp, admin } = await startVoiceSite(whatsappEnv(platform)));
});
afterAll(async () => {
  await smtp?.close();
  await platform?.close();
});

const call = memberRequest(() => server.url);
const uniqueDigits = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');

async function send(cookie: string, path: string, method: string, body: unknown) {
  const response = await call(cookie, path, { method, body: JSON.stringify(body) });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return response;
}

/** A person with one of everything: returns their contact's id and phone (10 digits). */
async function personWithEverything(name: string, cookie: string, nextContactAt: string) {
  const phone = `99${uniqueDigits()}`;
  expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone }))).status).toBe(201);
  const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
  const id = row?.id as string;
  const report = vapiReport(`merge-${phone}`, { nombre: name, telefono: phone, interes: 'Modelo Ceiba' });
  const voice = await fetch(`${server.url}/api/voice/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${VOICE_SECRET}` },
    body: JSON.stringify(report),
  });
  expect(voice.status).toBe(200);
  expect(
    (await postWebhook(server.url, inboundPayload({ from: `521${phone}`, name, content: { body: `Soy ${name}` } })))
      .status,
  ).toBe(200);
  await webhookEventsProcessed(server);
  await send(cookie, `/api/admin/contacts/${id}/notes`, 'POST', { body: `Nota de ${name}` });
  await send(cookie, `/api/admin/contacts/${id}/attempts`, 'POST', { channel: 'llamada' });
  await send(cookie, `/api/admin/contacts/${id}/outcomes`, 'POST', { outcome: 'no_contesto', nextContactAt: null });
  const { version } = (await (await call(cookie, `/api/admin/contacts/${id}`)).json()) as { version: number };
  // A next contact already past: its reminder is e-mailed at once.
  await send(cookie, `/api/admin/contacts/${id}`, 'PATCH', { nextContactAt, version });
  return { id, phone };
}

/** Every table with a column that names a contact (a foreign key to contacts, or a contact_id kept by a trigger). */
async function contactTables(): Promise<string[]> {
  const rows = await sql<{ table_name: string }>(
    `SELECT DISTINCT c.conrelid::regclass::text AS table_name FROM pg_constraint c
     WHERE c.contype = 'f' AND c.confrelid = 'contacts'::regclass
     UNION
     SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'contact_id'
     ORDER BY 1`,
  );
  return rows.map((row) => row.table_name);
}

const rowsOf = async (tables: string[], ids: string[]) =>
  Object.fromEntries(
    await Promise.all(
      tables.map(async (table) => [table, await countRows(table, 'contact_id = ANY($1::uuid[])', [ids])] as const),
    ),
  );

/** The number of notifications each request of the contact shows on its page. */
async function requestsOf(id: string): Promise<number[]> {
  const detail = (await (await call(admin, `/api/admin/contacts/${id}`)).json()) as {
    timeline: { type: string; deliveries?: unknown[] }[];
  };
  return detail.timeline.filter((entry) => entry.type === 'request').map((entry) => entry.deliveries?.length ?? 0);
}

describe('merging two contacts', () => {
  it('keeps every row of both: deliveries, messages, calls, notes, outcomes, attempts, reminders, history, requests', async () => {
    const adviser = await inviteAdviser(server.url, admin, 'union@ceiba.mx', 'Úrsula Unión');
    const soon = Date.now() - 60_000;
    const kept = await personWithEverything('Carlos Canul', admin, new Date(soon).toISOString());
    const gone = await personWithEverything('Carlos C.', admin, new Date(soon - 60_000).toISOString());
    await send(adviser.cookie, `/api/admin/contacts/${gone.id}/claim`, 'POST', {});
    const ids = [kept.id, gone.id];

    // Everything sent that will be: no delivery waiting, no reminder job left.
    for (const id of ids) {
      await expect
        .poll(
          async () =>
            (await countRows('notification_deliveries', "contact_id = $1 AND status IN ('pending', 'sending')", [id])) +
            (await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${id}`])),
          { interval: 100 },
        )
        .toBe(0);
    }
    const tables = await contactTables();
    expect(tables).toEqual(
      expect.arrayContaining([
        'contact_events',
        'contact_notes',
        'cotizaciones_rapidas',
        'notification_deliveries',
        'voice_calls',
        'whatsapp_conversations',
        'whatsapp_messages',
      ]),
    );
    const before = await rowsOf(tables, ids);
    for (const table of ['notification_deliveries', 'whatsapp_messages', 'voice_calls', 'contact_notes']) {
      // One of each, at least, on each side.
      for (const id of ids)
        expect(await countRows(table, 'contact_id = $1', [id]), `${table} of ${id}`).toBeGreaterThan(0);
    }
    const purposes = await sql<{ purpose: string; contacts: number }>(
      `SELECT purpose, count(DISTINCT contact_id)::int AS contacts FROM notification_deliveries
       WHERE contact_id = ANY($1::uuid[]) GROUP BY purpose ORDER BY purpose`,
      [ids],
    );
    expect(purposes).toEqual([
      { purpose: 'lead', contacts: 2 },
      { purpose: 'message', contacts: 2 },
      { purpose: 'reminder', contacts: 2 },
    ]);
    const attempts = await sql<{ sum: number }>(
      'SELECT sum(attempts)::int AS sum FROM contacts WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const requestsBefore = (await Promise.all(ids.map((id) => requestsOf(id)))).flat();
    expect(requestsBefore.every((deliveries) => deliveries > 0)).toBe(true);
    const { version, email } = (await (await call(admin, `/api/admin/contacts/${kept.id}`)).json()) as {
      version: number;
      email: string | null;
    };

    const merged = await call(admin, `/api/admin/contacts/${kept.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({ from: gone.id, name: 'Carlos Canul', phone: gone.phone, email, version }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);

    const after = await rowsOf(tables, [kept.id]);
    expect(await countRows('contacts', 'id = $1', [gone.id])).toBe(0);
    // Two conversations of one person are one (their figures folded); the history gains the merge and the phone.
    expect(after).toEqual({
      ...before,
      whatsapp_conversations: 1,
      contact_events: (before.contact_events as number) + 2,
    });
    const [afterAttempts] = await sql<{ attempts: number }>('SELECT attempts FROM contacts WHERE id = $1', [kept.id]);
    expect(afterAttempts?.attempts).toBe(attempts[0]?.sum);
    // Every request of both still shows the notifications that were sent for it ("Sin avisos" was the bug).
    expect((await requestsOf(kept.id)).sort()).toEqual(requestsBefore.sort());
  });

  it('two reminders of one moment to one member are one after the merge (the unique key holds), not a failure', async () => {
    const moment = new Date(Date.now() - 120_000).toISOString();
    const kept = await personWithEverything('Dora Dzul', admin, moment);
    const gone = await personWithEverything('Dora D.', admin, moment);
    for (const id of [kept.id, gone.id]) {
      await expect
        .poll(() => countRows('notification_deliveries', "purpose = 'reminder' AND contact_id = $1", [id]), {
          interval: 100,
        })
        .toBe(1);
    }
    const { version, email } = (await (await call(admin, `/api/admin/contacts/${kept.id}`)).json()) as {
      version: number;
      email: string | null;
    };
    const merged = await call(admin, `/api/admin/contacts/${kept.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({ from: gone.id, name: 'Dora Dzul', phone: gone.phone, email, version }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);
    expect(await countRows('notification_deliveries', "purpose = 'reminder' AND contact_id = $1", [kept.id])).toBe(1);
    expect(await countRows('notification_deliveries', "purpose = 'lead' AND contact_id = $1", [kept.id])).toBe(4);
  });

  it('waits in one order with a conversation’s notice being recorded: a merge meanwhile is no deadlock', async () => {
    const [member] = await sql<{ id: string }>('SELECT id FROM users ORDER BY created_at LIMIT 1');
    const [kept, gone] = await sql<{ id: string; phone: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, 'Eva Couoh', true), ($2, 'Eva C.', true)
       RETURNING id, phone`,
      [`+5299${uniqueDigits()}`, `+5299${uniqueDigits()}`],
    );
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction, unread_count)
       SELECT unnest($1::uuid[]), now(), 'in', 1`,
      [[kept?.id, gone?.id]],
    );
    // Each half's e-mail notice of its messages, waiting (not due for an hour: no worker takes them).
    const notices = await sql<{ id: string; contact_id: string }>(
      `INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id, next_attempt_at)
       SELECT 'message', 'email', unnest($1::uuid[]), $2, now() + interval '1 hour' RETURNING id, contact_id`,
      [[kept?.id, gone?.id], member?.id],
    );
    const goneNotice = notices.find((notice) => notice.contact_id === gone?.id)?.id;
    const { version } = (await (await call(admin, `/api/admin/contacts/${kept?.id}`)).json()) as { version: number };
    // A sender recording the merged half's notice (deliver.ts: the conversation first, then its delivery).
    const sender = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await sender.connect();
    try {
      await sender.query('BEGIN');
      await sender.query('SELECT 1 FROM whatsapp_conversations WHERE contact_id = $1 FOR UPDATE', [gone?.id]);
      const merging = call(admin, `/api/admin/contacts/${kept?.id}/merge`, {
        method: 'POST',
        body: JSON.stringify({ from: gone?.id, name: 'Eva Couoh', phone: kept?.phone, email: null, version }),
      });
      await until(
        async () =>
          (await countRows(
            'pg_stat_activity',
            `wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%whatsapp_conversations%'`,
          )) > 0,
        'the merge waiting on the conversation',
      );
      // The merge waits before it touches the notices: the sender records its own and ends.
      await sender.query(`UPDATE notification_deliveries SET updated_at = now() WHERE id = $1`, [goneNotice]);
      await sender.query('COMMIT');
      const merged = await merging;
      expect(merged.status, await merged.clone().text()).toBe(200);
    } finally {
      await sender.end();
    }
  });

  it('keeps the sooner next contact of the two, and its reminder', async () => {
    const soon = new Date(Date.now() + 26 * 3600_000).toISOString();
    const later = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const contacts: { id: string; phone: string }[] = [];
    for (const [name, at] of [
      ['Elsa Uc', later],
      ['Elsa U.', soon],
    ] as const) {
      const phone = `99${uniqueDigits()}`;
      await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone }));
      const [row] = await sql<{ id: string; version: number }>('SELECT id, version FROM contacts WHERE phone = $1', [
        `+52${phone}`,
      ]);
      await send(admin, `/api/admin/contacts/${row?.id}`, 'PATCH', { nextContactAt: at, version: row?.version });
      contacts.push({ id: row?.id as string, phone });
    }
    const [kept, gone] = contacts as [{ id: string; phone: string }, { id: string; phone: string }];
    const { version, email } = (await (await call(admin, `/api/admin/contacts/${kept.id}`)).json()) as {
      version: number;
      email: string | null;
    };
    const merged = await call(admin, `/api/admin/contacts/${kept.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({ from: gone.id, name: 'Elsa Uc', phone: gone.phone, email, version }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);
    expect(((await merged.json()) as { nextContactAt: string }).nextContactAt).toBe(soon);
    const jobs = await sql<{ key: string; run_at: Date }>(
      `SELECT key, run_at FROM graphile_worker.jobs WHERE key = ANY($1::text[])`,
      [[`reminder:${kept.id}`, `reminder:${gone.id}`]],
    );
    expect(jobs.map((job) => [job.key, job.run_at.toISOString()])).toEqual([[`reminder:${kept.id}`, soon]]);
  });

  it('the person still has one automatic first reply, ever: the kept contact’s next lead sends none', async () => {
    const contacts: { id: string; phone: string }[] = [];
    for (const name of ['Gina Pech', 'Gina P.']) {
      const phone = `99${uniqueDigits()}`;
      expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone }))).status).toBe(201);
      const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
      contacts.push({ id: row?.id as string, phone });
    }
    const [kept, gone] = contacts as [{ id: string; phone: string }, { id: string; phone: string }];
    const reply = JSON.stringify({ template: 'primer_contacto', body: 'Hola Gina, gracias por escribir a Ceiba.' });
    // The absorbed contact got the automatic first reply (the lead path's own function); the kept one none.
    const [first] = await sql<{ id: string | null }>('SELECT queue_first_reply($1, $2::jsonb) AS id', [gone.id, reply]);
    expect(first?.id).toBeTruthy();
    const { version, email } = (await (await call(admin, `/api/admin/contacts/${kept.id}`)).json()) as {
      version: number;
      email: string | null;
    };
    const merged = await call(admin, `/api/admin/contacts/${kept.id}/merge`, {
      method: 'POST',
      body: JSON.stringify({ from: gone.id, name: 'Gina Pech', phone: gone.phone, email, version }),
    });
    expect(merged.status, await merged.clone().text()).toBe(200);
    // The kept contact's next lead: the lead path asks for a first reply again, and none is stored.
    const [again] = await sql<{ id: string | null }>('SELECT queue_first_reply($1, $2::jsonb) AS id', [kept.id, reply]);
    expect(again?.id).toBeNull();
    expect(await countRows('whatsapp_messages', 'contact_id = $1 AND automated', [kept.id])).toBe(1);
  });

  it('keeps the furthest state of the two: a sale and its deal are never lost, a lost contact with an open half reopens', async () => {
    const pair = async (names: [string, string]) => {
      const ids: { id: string; phone: string }[] = [];
      for (const name of names) {
        const phone = `99${uniqueDigits()}`;
        expect((await postJson(`${server.url}/api/quick-quotes`, quickQuote({ name, phone }))).status).toBe(201);
        const [row] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52${phone}`]);
        ids.push({ id: row?.id as string, phone });
      }
      return ids as [{ id: string; phone: string }, { id: string; phone: string }];
    };
    const merge = async (kept: { id: string }, gone: { id: string; phone: string }, name: string) => {
      const { version } = (await (await call(admin, `/api/admin/contacts/${kept.id}`)).json()) as { version: number };
      const merged = await call(admin, `/api/admin/contacts/${kept.id}/merge`, {
        method: 'POST',
        body: JSON.stringify({ from: gone.id, name, phone: gone.phone, email: null, version }),
      });
      expect(merged.status, await merged.clone().text()).toBe(200);
      return (await merged.json()) as { state: string; lostReason: string | null; nextContactAt: string | null };
    };

    // The absorbed half was sold, with its value and Stripe customer: the person stays a client.
    const [fresh, sold] = await pair(['Iván Chan', 'Iván C.']);
    await sql(
      `UPDATE contacts SET state = 'cerrado_ganado', model_id = 'ceiba', estimated_value_mxn = 850000,
              payment_customer = 'cus_T1vanChan' WHERE id = $1`,
      [sold.id],
    );
    expect(await merge(fresh, sold, 'Iván Chan')).toMatchObject({ state: 'cerrado_ganado' });
    const [won] = await sql<{ estimated_value_mxn: number; model_id: string; payment_customer: string }>(
      'SELECT estimated_value_mxn, model_id, payment_customer FROM contacts WHERE id = $1',
      [fresh.id],
    );
    expect(won).toEqual({ estimated_value_mxn: 850000, model_id: 'ceiba', payment_customer: 'cus_T1vanChan' });

    // The kept half was lost long ago; the other is a new request due tomorrow: open again, and on Hoy.
    const [lost, open] = await pair(['Julia Kú', 'Julia K.']);
    await sql(`UPDATE contacts SET state = 'cerrado_perdido', lost_reason = 'no_responde' WHERE id = $1`, [lost.id]);
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    await sql(`UPDATE contacts SET state = 'en_seguimiento', next_contact_at = $2 WHERE id = $1`, [open.id, tomorrow]);
    expect(await merge(lost, open, 'Julia Kú')).toMatchObject({
      state: 'en_seguimiento',
      lostReason: null,
      nextContactAt: tomorrow,
    });
    expect(await countRows('graphile_worker.jobs', 'key = $1', [`reminder:${lost.id}`])).toBe(1);
  });
});
