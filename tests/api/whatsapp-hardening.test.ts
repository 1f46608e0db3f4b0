import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originOf, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows } from '../support/sql.ts';
import {
  type FakePlatform,
  postWebhook,
  startFakePlatform,
  statusPayload,
  wamid,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';

/**
 * The security review of the conversations: ids that are not ours never reach
 * PostgreSQL, a customer's media is never kept by the browser and still served
 * when keeping it fails, the platform's English never reaches the team, and
 * the token never travels unencrypted nor to a media id that is not a number.
 */
let server: RunningServer;
let platform: FakePlatform;
let admin: string;

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform));
  admin = await setupAdmin(server.url);
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

const call = (cookie: string, method: string, pathname: string, body?: unknown, base = server.url) =>
  fetch(base + pathname, {
    method,
    headers: { Cookie: cookie, Origin: originOf(base), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}\n${server.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('an id that is not one of ours', () => {
  it('is a Spanish 404 on every WhatsApp route, never a query (nor a 503)', async () => {
    const contact = 'No encontramos este prospecto.';
    const quickReply = 'No encontramos esta respuesta rápida.';
    for (const id of ['-'.repeat(36), 'a'.repeat(36), 'abc', `${randomUUID().toUpperCase()}`]) {
      const routes: [string, string, unknown, string][] = [
        ['GET', `/api/admin/contacts/${id}/whatsapp`, undefined, contact],
        ['GET', `/api/admin/contacts/${id}/whatsapp/messages`, undefined, contact],
        [
          'POST',
          `/api/admin/contacts/${id}/whatsapp/messages`,
          { kind: 'text', text: 'Hola', idempotencyKey: randomUUID() },
          contact,
        ],
        ['POST', `/api/admin/contacts/${id}/whatsapp/read`, undefined, contact],
        ['GET', `/api/admin/whatsapp/media/${id}`, undefined, 'Este mensaje no tiene archivo.'],
        ['PATCH', `/api/admin/whatsapp/quick-replies/${id}`, { title: 'Saludo' }, quickReply],
        ['DELETE', `/api/admin/whatsapp/quick-replies/${id}`, undefined, quickReply],
      ];
      for (const [method, path, body, message] of routes) {
        const answer = await call(admin, method, path, body);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(await answer.json(), `${method} ${path}`).toEqual({ error: message });
      }
      const list = await call(admin, 'GET', `/api/admin/whatsapp/quick-replies?contact=${id}`);
      expect(list.status).toBe(400);
    }
    expect(server.output()).not.toMatch(/invalid input syntax for type uuid|22P02/);
  });

  it('echoed by a status (biz_opaque_callback_data) keeps the status for later, never fails its delivery', async () => {
    const early = wamid();
    await postWebhook(server.url, statusPayload({ id: early, status: 'delivered', callback: '-'.repeat(36) }));
    await eventually(
      () => countRows('whatsapp_pending_statuses', 'wa_message_id = $1', [early]),
      (count) => count === 1,
      'the pending status',
    );
    expect(server.output()).not.toMatch(/invalid input syntax for type uuid|22P02/);
  });
});
