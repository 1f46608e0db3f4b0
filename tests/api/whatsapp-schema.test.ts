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
