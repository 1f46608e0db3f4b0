import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage } from '../../src/lib/whatsapp/contract.ts';
import { inviteAdviser, memberRequest, setupAdmin } from '../support/admin.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { countRows, sql } from '../support/sql.ts';
import {
  type FakePlatform,
  inboundPayload,
  postWebhook,
  startFakePlatform,
  whatsappEnv,
} from '../support/whatsapp-platform.ts';
import { webhookEventsProcessed } from '../support/whatsapp-queue.ts';

/**
 * Issue #27, the inbox: "unassigned ones follow the round-robin when it is
 * on". Messages from new numbers (and from a known contact nobody follows)
 * go to the team's advisers in turn while the round-robin is on, each one in
 * that adviser's "Mías"; with it off they stay in "Sin asignar".
 */
let server: RunningServer;
let platform: FakePlatform;
let admin: string;
let ana: { id: string; cookie: string };
let beto: { id: string; cookie: string };
const call = memberRequest(() => server.url);

beforeAll(async () => {
  platform = await startFakePlatform();
  server = await startServer(whatsappEnv(platform));
  admin = await setupAdmin(server.url);
  ana = await inviteAdviser(server.url, admin, 'ana@ceiba.mx', 'Ana Canul');
  beto = await inviteAdviser(server.url, admin, 'beto@ceiba.mx', 'Beto Pech');
});
afterAll(async () => {
  await server?.stop();
  await platform?.close();
});

/** Every stored delivery processed by the queue. */
const processed = () => webhookEventsProcessed(server);

async function roundRobin(on: boolean): Promise<void> {
  const answer = await call(admin, '/api/admin/team/settings', {
    method: 'PATCH',
    body: JSON.stringify({ roundRobin: on }),
  });
  expect(answer.status).toBe(200);
}

let numbers = 0;
/** A message from a number of its own (WhatsApp's 521999…), answered 200 and processed; its contact's id. */
async function messageFromNewNumber(name: string): Promise<string> {
  numbers += 1;
  const digits = `55${String(numbers).padStart(5, '0')}`;
  const answer = await postWebhook(
    server.url,
    inboundPayload({ from: `521999${digits}`, name, content: { body: `Hola, soy ${name}` } }),
  );
  expect(answer.status).toBe(200);
  await processed();
  const [contact] = await sql<{ id: string }>('SELECT id FROM contacts WHERE phone = $1', [`+52999${digits}`]);
  expect(contact, name).toBeDefined();
  return contact?.id as string;
}

async function detail(id: string) {
  const answer = await call(admin, `/api/admin/contacts/${id}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as {
    assignedTo: { id: string; name: string } | null;
    timeline: { type: string; kind?: string; actor?: string | null; from?: string | null; to?: string | null }[];
  };
}

async function inbox(cookie: string, filter: 'mine' | 'unassigned'): Promise<string[]> {
  const answer = await call(cookie, `/api/admin/whatsapp/conversations?filter=${filter}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as ConversationPage).conversations.map((each) => each.name);
}

describe('inbound messages and the round-robin', () => {
  it('with the round-robin on, messages from new numbers go to the two advisers in turn, each in their "Mías"', async () => {
    await roundRobin(true);
    const people = ['Lucía May', 'Marco Ek', 'Rosa Dzul', 'Pedro Chi'];
    const contacts: string[] = [];
    for (const person of people) contacts.push(await messageFromNewNumber(person));

    const owners = await Promise.all(contacts.map(async (id) => (await detail(id)).assignedTo?.name ?? null));
    // In turn: never the same adviser twice in a row, two each.
    expect(owners.filter((name) => name === 'Ana Canul')).toHaveLength(2);
    expect(owners.filter((name) => name === 'Beto Pech')).toHaveLength(2);
    for (let index = 1; index < owners.length; index += 1) expect(owners[index]).not.toBe(owners[index - 1]);

    const automatic = (await detail(contacts[0] as string)).timeline.find((entry) => entry.kind === 'assigned');
    expect(automatic).toMatchObject({ actor: null, from: null, to: owners[0] });
    const theirs = (adviser: string) => people.filter((_, index) => owners[index] === adviser).sort();
    expect((await inbox(ana.cookie, 'mine')).sort()).toEqual(theirs('Ana Canul'));
    expect((await inbox(beto.cookie, 'mine')).sort()).toEqual(theirs('Beto Pech'));
    expect(await inbox(admin, 'unassigned')).toEqual([]);
  });

  it('with it on, a known contact that nobody follows gets the next adviser when it writes', async () => {
    const [last] = await sql<{ name: string }>(
      `SELECT u.name FROM team_settings t JOIN users u ON u.id = t.last_assigned`,
    );
    const [known] = await sql<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ('+529998880001', 'Julia Tun', true) RETURNING id`,
    );
    expect((await detail(known?.id as string)).assignedTo).toBeNull();
    expect(
      (
        await postWebhook(
          server.url,
          inboundPayload({ from: '5219998880001', content: { body: '¿Siguen vendiendo?' } }),
        )
      ).status,
    ).toBe(200);
    await processed();
    const { assignedTo, timeline } = await detail(known?.id as string);
    const next = last?.name === 'Ana Canul' ? 'Beto Pech' : 'Ana Canul';
    expect(assignedTo?.name).toBe(next);
    expect(timeline.find((entry) => entry.kind === 'assigned')).toMatchObject({ actor: null, from: null, to: next });
    expect(await inbox(next === 'Ana Canul' ? ana.cookie : beto.cookie, 'mine')).toContain('Julia Tun');
  });

  it('with it off, messages from new numbers stay unassigned, under "Sin asignar"', async () => {
    await roundRobin(false);
    const before = await countRows('contact_events', `kind = 'assigned'`);
    const first = await messageFromNewNumber('Sofía Uc');
    const second = await messageFromNewNumber('Tomás Kú');
    expect((await detail(first)).assignedTo).toBeNull();
    expect((await detail(second)).assignedTo).toBeNull();
    expect(await inbox(admin, 'unassigned')).toEqual(expect.arrayContaining(['Sofía Uc', 'Tomás Kú']));
    expect(await inbox(ana.cookie, 'mine')).not.toContain('Sofía Uc');
    expect(await inbox(beto.cookie, 'mine')).not.toContain('Tomás Kú');
    expect(await countRows('contact_events', `kind = 'assigned'`)).toBe(before);
  });
});
