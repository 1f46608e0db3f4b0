import { describe, expect, it } from 'vitest';
import { withDatabase } from '../db/database.ts';
import { auditedExport } from './activity.ts';

const exports = (db: { query: <R>(text: string) => Promise<{ rows: R[] }> }) =>
  db.query<{ summary: string; details: { rows?: number; filters?: object } }>(
    `SELECT summary, details FROM activity_log WHERE kind = 'export' AND details ->> 'which' = 'prueba.csv' ORDER BY at, id`,
  );

describe('an export on the activity log', () => {
  it('is recorded before its first row leaves, and again with its row count when it ends', async () => {
    await withDatabase(async (db) => {
      let released = false;
      async function* rows() {
        yield [['1', 'Ana']];
        yield [['2', 'Luis']];
      }
      const audited = auditedExport(
        {
          db,
          release: async () => {
            released = true;
          },
          user: { id: crypto.randomUUID(), name: 'Rosa', email: 'r@x.mx' },
        },
        'prueba.csv',
        { state: 'nuevo', q: '' },
        rows(),
      );
      // The first batch, as the download's stream takes it: the entry is there before it is sent.
      expect((await audited.batches.next()).value).toEqual([['1', 'Ana']]);
      expect((await exports(db)).rows).toEqual([
        { summary: 'Empezó a exportar prueba.csv', details: expect.objectContaining({ filters: { state: 'nuevo' } }) },
      ]);
      // A process killed here (a function past its time limit) leaves that entry; one that ends says how many.
      while (!(await audited.batches.next()).done) {}
      await audited.onEnd();
      expect((await exports(db)).rows.map((row) => row.summary)).toEqual([
        'Empezó a exportar prueba.csv',
        'Exportó prueba.csv: 2 filas',
      ]);
      expect(released).toBe(true);
    });
  });
});
