import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage, MessagePage, UnreadCount } from '../../src/lib/whatsapp/contract.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { sql } from '../support/sql.ts';

/**
 * Issue #27, the panel's reads (decision 0039's "Panel side"): the inbox's
 * conversations by filter, search and cursor, a contact's messages 50 a page,
 * the badge's count and "read", under the session (rows seeded with SQL as the
 * webhook's processing leaves them).
 */
let server: RunningServer;
let admin: string;
let ana: { id: string; cookie: string };
let sinRol: { id: string; cookie: string };
const call = memberRequest(() => server.url);
const get = async <T>(cookie: string, path: string): Promise<T> => {
  const answer = await call(cookie, path);
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
};

let phones = 0;
/** A contact with a conversation as the webhook's processing keeps it. */
async function conversation(
  name: string,
  fields: {
    minutesAgo: number;
    to?: string;
    unread?: number;
    waitingMinutes?: number;
    optedOut?: boolean;
    preview?: string;
  },
): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `WITH c AS (INSERT INTO contacts (phone, name, is_buyer, assigned_to) VALUES ($1, $2, true, $3) RETURNING id)
     INSERT INTO whatsapp_conversations (contact_id, wa_id, last_message_at, last_direction, last_preview, last_inbound_at,
                                         unread_count, waiting_since, opted_out_at)
     SELECT id, '52199' || right($1, 8), now() - make_interval(mins => $4), 'in', $5, now() - make_interval(mins => $4), $6,
            CASE WHEN $7::int IS NULL THEN NULL ELSE now() - make_interval(mins => $7::int) END,
            CASE WHEN $8 THEN now() END
       FROM c RETURNING contact_id AS id`,
    [
      `+5299${String(++phones).padStart(8, '0')}`,
      name,
      fields.to ?? null,
      fields.minutesAgo,
      fields.preview ?? `Hola, soy ${name}`,
      fields.unread ?? 0,
      fields.waitingMinutes ?? null,
      fields.optedOut ?? false,
    ],
  );
  return row?.id as string;
}

const names = (page: ConversationPage) => page.conversations.map((each) => each.name);
let withMessages: string;
let noMessages: string;

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
  ana = await inviteAdviser(server.url, admin, 'ana@ceiba.mx', 'Ana');
  sinRol = await inviteAdviser(server.url, admin, 'sinrol@ceiba.mx', 'Sin Rol');
  await sql('DELETE FROM user_roles WHERE user_id = $1', [sinRol.id]);
  withMessages = await conversation('Lucía Pech', { minutesAgo: 1, to: ana.id, unread: 2, waitingMinutes: 20 });
  await conversation('Marco Canché', { minutesAgo: 2, unread: 1, waitingMinutes: 5 });
  await conversation('Rosa Baja', { minutesAgo: 3, optedOut: true, preview: 'BAJA' });
  await conversation('<script>alert(1)</script>', { minutesAgo: 4, preview: '<b>negrita</b>' });
  for (let index = 0; index < 32; index += 1) await conversation(`Relleno ${index}`, { minutesAgo: 100 + index });
  [{ id: noMessages }] = (await sql<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529990000001', 'Sin mensajes', true) RETURNING id`,
  )) as [{ id: string }];
  // 120 messages of Lucía, a minute apart, the newest first in time; one failed of ours, one photo.
  await sql(
    `INSERT INTO whatsapp_messages (contact_id, direction, wa_message_id, kind, body, status, created_at, media_id, media_mime,
                                    error_code, error_reason)
     SELECT $1, CASE WHEN n % 2 = 0 THEN 'in' ELSE 'out' END, 'wamid.inbox' || n,
            CASE WHEN n = 1 THEN 'image' ELSE 'text' END, 'Mensaje ' || n,
            CASE WHEN n % 2 = 0 THEN 'received' WHEN n = 3 THEN 'failed' ELSE 'read' END,
            now() - make_interval(mins => n), CASE WHEN n = 1 THEN 'media-1' END, CASE WHEN n = 1 THEN 'image/jpeg' END,
            CASE WHEN n = 3 THEN 131047 END, CASE WHEN n = 3 THEN 'Pasaron más de 24 horas.' END
       FROM generate_series(1, 120) n`,
    [withMessages],
  );
});

afterAll(async () => {
  await server?.stop();
});

describe('the inbox’s reads', () => {
  it('refuse without a session (401) and without a role (403)', async () => {
    for (const path of [
      '/api/admin/whatsapp/conversations',
      '/api/admin/whatsapp/unread',
      `/api/admin/contacts/${withMessages}/whatsapp/messages`,
    ]) {
      expect((await call(null, path)).status, path).toBe(401);
      expect((await call(sinRol.cookie, path)).status, path).toBe(403);
    }
    const read = `/api/admin/contacts/${withMessages}/whatsapp/read`;
    expect((await call(null, read, { method: 'POST' })).status).toBe(401);
    expect((await call(sinRol.cookie, read, { method: 'POST' })).status).toBe(403);
  });

  it('list conversations newest first, 30 a page, then the rest by the cursor', async () => {
    const first = await get<ConversationPage>(admin, '/api/admin/whatsapp/conversations');
    expect(names(first).slice(0, 4)).toEqual(['Lucía Pech', 'Marco Canché', 'Rosa Baja', '<script>alert(1)</script>']);
    expect(first.conversations).toHaveLength(30);
    expect(first.conversations[0]).toMatchObject({
      unread: 2,
      assignedTo: { id: ana.id, name: 'Ana' },
      lastMessage: { direction: 'in', preview: 'Hola, soy Lucía Pech' },
    });
    expect(first.conversations[3]?.lastMessage.preview).toBe('<b>negrita</b>');
    const second = await get<ConversationPage>(admin, `/api/admin/whatsapp/conversations?cursor=${first.nextCursor}`);
    expect(names(second)).toEqual(['Relleno 26', 'Relleno 27', 'Relleno 28', 'Relleno 29', 'Relleno 30', 'Relleno 31']);
    expect(second.nextCursor).toBeNull();
  });

  it('filter and search; an adviser sees what they see in Prospectos, “mine” their own', async () => {
    const list = async (query: string, cookie = ana.cookie) =>
      names(await get<ConversationPage>(cookie, `/api/admin/whatsapp/conversations?${query}`));
    expect(await list('filter=mine')).toEqual(['Lucía Pech']);
    expect(await list('filter=mine', admin)).toEqual([]);
    expect(await list('filter=unread')).toEqual(['Lucía Pech', 'Marco Canché']);
    expect(await list('filter=waiting')).toEqual(['Lucía Pech']);
    expect(await list('filter=opted_out')).toEqual(['Rosa Baja']);
    expect((await list('filter=unassigned')).slice(0, 2)).toEqual(['Marco Canché', 'Rosa Baja']);
    expect(await list('q=lucia')).toEqual(['Lucía Pech']);
    expect(await list(`q=${encodeURIComponent('99 0000 0002')}`)).toEqual(['Marco Canché']);
    expect((await list('filter=all')).length).toBe(30);
  });

  it('answer a bad filter, search or cursor with a Spanish 400', async () => {
    for (const [query, message] of [
      ['cursor=no-es-un-cursor', 'Parámetros de paginación no válidos.'],
      ['filter=todas', 'Revisa los filtros.'],
      [`q=${'a'.repeat(101)}`, 'Revisa los filtros.'],
      ['q=%00', 'Revisa los filtros.'],
    ] as const) {
      const answer = await call(ana.cookie, `/api/admin/whatsapp/conversations?${query}`);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toBe(message);
    }
    const messages = await call(ana.cookie, `/api/admin/contacts/${withMessages}/whatsapp/messages?before=xyz`);
    expect(messages.status).toBe(400);
    expect(await messages.json()).toEqual({ error: 'Parámetros de paginación no válidos.' });
  });

  it('page a contact’s messages 50 at a time, newest first, media through our proxy', async () => {
    const path = `/api/admin/contacts/${withMessages}/whatsapp/messages`;
    const first = await get<MessagePage>(ana.cookie, path);
    expect(first.messages).toHaveLength(50);
    expect(first.messages.map((message) => message.body).slice(0, 3)).toEqual(['Mensaje 1', 'Mensaje 2', 'Mensaje 3']);
    expect(first.messages[0]?.media).toEqual({
      url: `/api/admin/whatsapp/media/${first.messages[0]?.id}`,
      mime: 'image/jpeg',
      filename: null,
    });
    expect(first.messages[2]).toMatchObject({
      direction: 'out',
      status: 'failed',
      error: { code: 131047, reason: 'Pasaron más de 24 horas.' },
    });
    const second = await get<MessagePage>(ana.cookie, `${path}?before=${first.nextCursor}`);
    const third = await get<MessagePage>(ana.cookie, `${path}?before=${second.nextCursor}`);
    expect(second.messages[0]?.body).toBe('Mensaje 51');
    expect(third.messages.map((message) => message.body).at(-1)).toBe('Mensaje 120');
    expect(third.messages).toHaveLength(20);
    expect(third.nextCursor).toBeNull();
    expect(await get<MessagePage>(ana.cookie, `/api/admin/contacts/${noMessages}/whatsapp/messages`)).toEqual({
      messages: [],
      nextCursor: null,
    });
    const missing = '0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e';
    expect((await call(ana.cookie, `/api/admin/contacts/${missing}/whatsapp/messages`)).status).toBe(404);
  });

  it('count the unread for the badge; reading a conversation clears it for the team', async () => {
    expect(await get<UnreadCount>(ana.cookie, '/api/admin/whatsapp/unread')).toEqual({ messages: 3, conversations: 2 });
    const read = await call(ana.cookie, `/api/admin/contacts/${withMessages}/whatsapp/read`, { method: 'POST' });
    expect(read.status).toBe(204);
    expect(await get<UnreadCount>(admin, '/api/admin/whatsapp/unread')).toEqual({ messages: 1, conversations: 1 });
    const [row] = await sql<{ unread_count: number; last_read_by: string }>(
      'SELECT unread_count, last_read_by FROM whatsapp_conversations WHERE contact_id = $1',
      [withMessages],
    );
    expect(row).toEqual({ unread_count: 0, last_read_by: ana.id });
    expect((await call(ana.cookie, `/api/admin/contacts/${noMessages}/whatsapp/read`, { method: 'POST' })).status).toBe(
      204,
    );
    const missing = '0b9f4a1e-6c1d-4c55-9d1e-2f3a4b5c6d7e';
    expect((await call(ana.cookie, `/api/admin/contacts/${missing}/whatsapp/read`, { method: 'POST' })).status).toBe(
      404,
    );
    const crossSite = await call(ana.cookie, `/api/admin/contacts/${withMessages}/whatsapp/read`, {
      method: 'POST',
      headers: { Origin: 'https://otro.example' },
    });
    expect(crossSite.status).toBe(403);
  });
});
