import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Migration 0028 (decision 0046): a lead's deliveries run no foreign-key
 * check on their contact (its lead's own key locks it in the same
 * transaction); what the key gave is kept by triggers. On the real database.
 */
let admin: pg.Pool;
let member: string;
beforeAll(async () => {
  admin = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
  const { rows } = await admin.query<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ($1, '$2b$10$abcdefghijklmnopqrstuv') RETURNING id`,
    [`recordatorios-${randomUUID().slice(0, 8)}@ceiba.mx`],
  );
  member = rows[0]?.id as string;
});
afterAll(async () => {
  await admin.query('DELETE FROM users WHERE id = $1', [member]);
  await admin.end();
});

const phone = () => `+5296${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
async function contact(): Promise<string> {
  const { rows } = await admin.query<{ id: string }>(
    `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, 'Rosa Chan', true) RETURNING id`,
    [phone()],
  );
  return rows[0]?.id as string;
}
const REMINDER = `INSERT INTO notification_deliveries (purpose, channel, contact_id, recipient_id, remind_at)
  VALUES ('reminder', 'email', $1, $2, now() + interval '1 day') RETURNING id`;
const LEAD = `INSERT INTO notification_deliveries (purpose, channel, lead_kind, lead_id, contact_id)
  VALUES ('lead', 'webhook', 'quick-quotes', gen_random_uuid(), $1) RETURNING id`;
const deliveriesOf = async (ids: string[]) =>
  Number(
    (
      await admin.query<{ n: string }>('SELECT count(*) AS n FROM notification_deliveries WHERE contact_id = ANY($1)', [
        ids,
      ])
    ).rows[0]?.n,
  );

/** Resolves once `session`'s statement is waiting for a lock (asserted by polling, not timed). */
async function waitingForLock(session: pg.PoolClient): Promise<void> {
  const pid = (session as unknown as { processID: number }).processID;
  await expect
    .poll(
      async () =>
        (
          await admin.query<{ wait: string | null }>(
            'SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1',
            [pid],
          )
        ).rows[0]?.wait,
    )
    .toBe('Lock');
}

describe("a delivery's contact", () => {
  it('erasing contacts (two in one statement) takes their deliveries of every kind with them, and no one else’s', async () => {
    const [a, b, kept] = [await contact(), await contact(), await contact()];
    for (const id of [a, b, kept]) {
      await admin.query(REMINDER, [id, member]);
      await admin.query(LEAD, [id]);
    }
    expect(await deliveriesOf([a, b, kept])).toBe(6);
    await admin.query('DELETE FROM contacts WHERE id = ANY($1)', [[a, b]]);
    expect(await deliveriesOf([a, b])).toBe(0);
    expect(await deliveriesOf([kept])).toBe(2);
    await admin.query('DELETE FROM contacts WHERE id = $1', [kept]);
    expect(await deliveriesOf([kept])).toBe(0);
  });

  it('refuses a reminder for a contact that does not exist, as a foreign key (23503)', async () => {
    await expect(admin.query(REMINDER, [randomUUID(), member])).rejects.toMatchObject({
      code: '23503',
      constraint: 'notification_deliveries_contact_id_fkey',
    });
  });

  it('a reminder being written holds its contact: an erasure waits for it, then takes it too', async () => {
    const id = await contact();
    const writer = await admin.connect();
    const eraser = await admin.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(REMINDER, [id, member]);
      const erasing = eraser.query('DELETE FROM contacts WHERE id = $1', [id]);
      // The erasure is waiting for the reminder's lock on the contact.
      await waitingForLock(eraser);
      await writer.query('COMMIT');
      await erasing;
      expect(await deliveriesOf([id])).toBe(0);
    } finally {
      writer.release();
      eraser.release();
    }
  });
});

/**
 * Migration 0031 (decision 0047): the same for a delivery's recipient, the
 * member a reminder goes to, which a lead's deliveries never have.
 */
describe("a delivery's recipient", () => {
  const newMember = async () =>
    (
      await admin.query<{ id: string }>(
        `INSERT INTO users (email, password_hash) VALUES ($1, '$2b$10$abcdefghijklmnopqrstuv') RETURNING id`,
        [`destinatario-${randomUUID().slice(0, 8)}@ceiba.mx`],
      )
    ).rows[0]?.id as string;
  const addressedTo = async (ids: string[]) =>
    Number(
      (
        await admin.query<{ n: string }>(
          'SELECT count(*) AS n FROM notification_deliveries WHERE recipient_id = ANY($1)',
          [ids],
        )
      ).rows[0]?.n,
    );

  it('deleting members (two in one statement) takes the deliveries addressed to them, and no one else’s', async () => {
    const [a, b, kept] = [await newMember(), await newMember(), await newMember()];
    const person = await contact();
    for (const id of [a, b, kept]) await admin.query(REMINDER, [person, id]);
    await admin.query(LEAD, [person]);
    expect(await addressedTo([a, b, kept])).toBe(3);
    await admin.query('DELETE FROM users WHERE id = ANY($1)', [[a, b]]);
    expect(await addressedTo([a, b])).toBe(0);
    expect(await addressedTo([kept])).toBe(1);
    // The lead's delivery (no recipient) stays with its contact.
    expect(await deliveriesOf([person])).toBe(2);
    await admin.query('DELETE FROM users WHERE id = $1', [kept]);
    await admin.query('DELETE FROM contacts WHERE id = $1', [person]);
  });

  it('refuses a reminder for a member who does not exist, as a foreign key (23503)', async () => {
    await expect(admin.query(REMINDER, [await contact(), randomUUID()])).rejects.toMatchObject({
      code: '23503',
      constraint: 'notification_deliveries_recipient_id_fkey',
    });
  });

  it('a reminder being written holds its member: a deletion waits for it, then takes it too', async () => {
    const [id, person] = [await newMember(), await contact()];
    const writer = await admin.connect();
    const remover = await admin.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(REMINDER, [person, id]);
      const removing = remover.query('DELETE FROM users WHERE id = $1', [id]);
      // The deletion is waiting for the reminder's lock on the member.
      await waitingForLock(remover);
      await writer.query('COMMIT');
      await removing;
      expect(await addressedTo([id])).toBe(0);
      expect(await deliveriesOf([person])).toBe(0);
    } finally {
      writer.release();
      remover.release();
      await admin.query('DELETE FROM contacts WHERE id = $1', [person]);
    }
  });
});
