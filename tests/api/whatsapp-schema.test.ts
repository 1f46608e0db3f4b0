import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import type { Queryable } from '../../src/server/db/database.ts';
import { cachedMedia, keepMedia, readUpTo } from '../../src/server/whatsapp/media-cache.ts';
import { createDatabaseBefore, dropTestDatabase } from '../support/databases.ts';
import { countRows, sql } from '../support/sql.ts';

describe('the WhatsApp tables (migration 0019)', () => {
  it('rank statuses forward only', async () => {
    const [row] = await sql<{ ranks: number[] }>(
      `SELECT array[whatsapp_status_rank('sending'), whatsapp_status_rank('sent'), whatsapp_status_rank('delivered'),
                    whatsapp_status_rank('read'), whatsapp_status_rank('failed')] AS ranks`,
    );
    expect(row?.ranks).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('the history kinds after 0019', () => {
  it('keep every kind allowed before and add the WhatsApp ones', async () => {
    const [row] = await sql<{ definition: string }>(
      `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'contact_events_kind_check'`,
    );
    for (const kind of [
      'state',
      'reopened',
      'assigned',
      'outcome',
      'attempt',
      'claimed',
      'merged',
      'whatsapp_opt_out',
      'whatsapp_template',
    ]) {
      expect(row?.definition).toContain(kind);
    }
  });
});

describe('a conversation follows its contact', () => {
  it("has the contact's adviser, moved with it, and two contacts merged fold their conversations into one", async () => {
    const [adviser] = await sql<{ id: string }>(
      `INSERT INTO users (email, password_hash) VALUES ('folds@ceiba.mx', '$2a$04$x') RETURNING id`,
    );
    const [kept, gone] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer, assigned_to) VALUES ('+529998880001', 'Kept', true, $1), ('+529998880002', 'Gone', true, NULL)
       RETURNING id`,
      [adviser?.id],
    );
    await sql(
      `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction, last_preview, unread_count, waiting_since)
       VALUES ($1, now() - interval '2 hours', 'in', 'viejo', 2, now() - interval '2 hours'),
              ($2, now() - interval '1 hour', 'in', 'nuevo', 3, now() - interval '1 hour')`,
      [kept?.id, gone?.id],
    );
    const assignee = async (id: string | undefined) =>
      (
        await sql<{ assigned_to: string | null }>(
          'SELECT assigned_to FROM whatsapp_conversations WHERE contact_id = $1',
          [id],
        )
      )[0]?.assigned_to;
    expect(await assignee(kept?.id)).toBe(adviser?.id);
    await sql('UPDATE contacts SET assigned_to = $1 WHERE id = $2', [adviser?.id, gone?.id]);
    expect(await assignee(gone?.id)).toBe(adviser?.id);
    await sql('UPDATE contacts SET assigned_to = NULL WHERE id = $1', [kept?.id]);
    expect(await assignee(kept?.id)).toBeNull();

    // What src/server/contacts/edit.ts does to every row that names the merged contact, then the delete.
    await sql('UPDATE whatsapp_conversations SET contact_id = $1 WHERE contact_id = $2', [kept?.id, gone?.id]);
    await sql('DELETE FROM contacts WHERE id = $1', [gone?.id]);
    const rows = await sql<{ unread_count: number; last_preview: string }>(
      'SELECT unread_count, last_preview FROM whatsapp_conversations WHERE contact_id = ANY($1)',
      [[kept?.id, gone?.id]],
    );
    expect(rows).toEqual([{ unread_count: 5, last_preview: 'nuevo' }]);
  });
});

describe('the media kept after a first open (migration 0023)', () => {
  const db: Queryable = {
    query: async (text, values) => {
      const rows = await sql(text, values);
      return { rows, rowCount: rows.length } as never;
    },
  };
  const bytes = (size: number, fill: number) => new Uint8Array(size).fill(fill);

  it('keeps files up to the cap, drops the least recently opened beyond the total, and goes with the message', async () => {
    const [contact] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529990023001', 'Caché Medios', true) RETURNING id`,
    );
    const ids = await sql<{ id: string }>(
      `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, status, media_id)
       SELECT $1, 'in', 'wamid.cache.' || n, 'image', 'received', 'media-cache-' || n FROM generate_series(1, 4) AS n
       RETURNING id`,
      [contact?.id],
    );
    const [a, b, c, big] = ids.map((row) => row.id) as [string, string, string, string];
    const limits = { file: 50, total: 100 };
    await keepMedia(db, a, { type: 'image/jpeg', bytes: bytes(40, 1) }, limits);
    await keepMedia(db, b, { type: 'image/png', bytes: bytes(40, 2) }, limits);
    await keepMedia(db, big, { type: 'video/mp4', bytes: bytes(51, 3) }, limits);
    expect(await cachedMedia(db, big)).toBeNull();
    // A opened last: B is the least recently opened when C passes the total.
    await sql(`UPDATE whatsapp_media_cache SET last_used_at = now() - interval '10 minutes' WHERE message_id = $1`, [
      a,
    ]);
    await sql(`UPDATE whatsapp_media_cache SET last_used_at = now() - interval '5 minutes' WHERE message_id = $1`, [b]);
    const kept = await cachedMedia(db, a);
    expect(kept?.type).toBe('image/jpeg');
    expect(Buffer.from(kept?.bytes ?? [])).toEqual(Buffer.from(bytes(40, 1)));
    await keepMedia(db, c, { type: 'image/webp', bytes: bytes(40, 4) }, limits);
    expect(await cachedMedia(db, b)).toBeNull();
    expect((await cachedMedia(db, c))?.type).toBe('image/webp');
    expect(
      (await sql<{ id: string }>('SELECT message_id AS id FROM whatsapp_media_cache ORDER BY 1'))
        .map((row) => row.id)
        .sort(),
    ).toEqual([a, c].sort());
    // The person's erasure takes their messages, and with them what was kept.
    await sql('DELETE FROM contacts WHERE id = $1', [contact?.id]);
    expect(await countRows('whatsapp_media_cache')).toBe(0);
  });

  it('reads a body whole up to the cap, and streams a larger one whole without keeping it', async () => {
    const body = (...chunks: number[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const [index, size] of chunks.entries()) controller.enqueue(bytes(size, index + 1));
          controller.close();
        },
      });
    const small = await readUpTo(body(10, 10), 20);
    expect('bytes' in small && small.bytes.byteLength).toBe(20);
    const large = await readUpTo(body(10, 10, 10), 15);
    expect('stream' in large).toBe(true);
    if ('stream' in large) expect((await new Response(large.stream).arrayBuffer()).byteLength).toBe(30);
  });
});

describe('migration 0034 on what was stored before it (issue #38, items 6 and 7)', () => {
  it('keeps one row of each delivery stored twice, and takes the bidirectional controls out of what the team reads', async () => {
    const admin = inject('pgAdminUrl');
    const url = await createDatabaseBefore(admin, '0034', 'm0034');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
        (await client.query<Row>(text, values)).rows;
      const twice = '{"object":"whatsapp_business_account","entry":[]}';
      await query(
        `INSERT INTO whatsapp_webhook_events (body, processed_at) VALUES ($1, now()), ($1, NULL), ($2, NULL)`,
        [twice, '{"object":"whatsapp_business_account","entry":[{}]}'],
      );
      const [contact] = await query<{ id: string }>(
        `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529990034001', 'Nora\u200F Canul', true) RETURNING id`,
      );
      await query(
        `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, media_id, media_filename, status, raw)
         VALUES ($1, 'in', 'wamid.m0034a', 'document', 'factura\u202Efdp.exe', '1038472910293870', 'factura\u202Efdp.exe', 'received',
                 '{"document": {"filename": "factura\u202Efdp.exe"}}'),
                ($1, 'in', 'wamid.m0034b', 'location', 'Mi\u2067 terreno', NULL, NULL, 'received',
                 '{"location": {"latitude": 20.9, "longitude": -89.6, "name": "Mi\u2067 terreno"}}')`,
        [contact?.id],
      );
      await query(
        `INSERT INTO whatsapp_conversations (contact_id, last_message_at, last_direction, last_preview)
         VALUES ($1, now(), 'in', 'Mi\u2067 terreno')`,
        [contact?.id],
      );
      await query(
        `INSERT INTO voice_calls (call_id, summary, transcript, name, messages, structured)
         VALUES ('m0034', 'Pidió la \u202Efdp.exe', 'User: Hola\u200E', 'Rosa\u202E Ku',
                 '[{"role": "visitante", "text": "Hola\u2066", "seconds": 1}]', '{"nombre": "Rosa\u202E Ku"}')`,
      );

      await migrate(url);
      expect(
        await query('SELECT body, processed_at IS NOT NULL AS processed FROM whatsapp_webhook_events ORDER BY id'),
      ).toEqual([
        { body: twice, processed: true },
        { body: '{"object":"whatsapp_business_account","entry":[{}]}', processed: false },
      ]);
      const bidi = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
      const messages = await query<{ body: string; media_filename: string | null; raw: unknown }>(
        'SELECT body, media_filename, raw FROM whatsapp_messages ORDER BY wa_message_id',
      );
      expect(messages).toEqual([
        {
          body: 'facturafdp.exe',
          media_filename: 'facturafdp.exe',
          raw: { document: { filename: 'facturafdp.exe' } },
        },
        {
          body: 'Mi terreno',
          media_filename: null,
          raw: { location: { latitude: 20.9, longitude: -89.6, name: 'Mi terreno' } },
        },
      ]);
      const rest = await query(
        `SELECT (SELECT name FROM contacts) AS contact, (SELECT last_preview FROM whatsapp_conversations) AS preview,
                (SELECT row_to_json(v) FROM (SELECT summary, transcript, name, messages, structured FROM voice_calls) v) AS call`,
      );
      expect(JSON.stringify(rest)).not.toMatch(bidi);
      expect(rest[0]).toMatchObject({ contact: 'Nora Canul', preview: 'Mi terreno', call: { name: 'Rosa Ku' } });
      // A replay is refused by the constraint from now on.
      await query(`INSERT INTO whatsapp_webhook_events (body) VALUES ($1) ON CONFLICT (body_sha256) DO NOTHING`, [
        twice,
      ]);
      expect(await query('SELECT count(*)::int AS n FROM whatsapp_webhook_events')).toEqual([{ n: 2 }]);
    } finally {
      await client.end();
      await dropTestDatabase(admin, url);
    }
  });
});
