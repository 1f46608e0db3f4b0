import { describe, expect, it } from 'vitest';
import { sql } from '../support/sql.ts';

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
