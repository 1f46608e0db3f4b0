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
