import pg from 'pg';
import { afterAll } from 'vitest';

let pool: pg.Pool | undefined;

/** Runs SQL on this test file's database, to look at what the site stored. */
export async function sql<Row extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  return (await pool.query<Row>(text, values)).rows;
}

export async function countRows(table: string, where = 'TRUE', values: unknown[] = []): Promise<number> {
  const [row] = await sql<{ count: string }>(`SELECT count(*) FROM ${table} WHERE ${where}`, values);
  return Number(row?.count);
}

afterAll(async () => {
  await pool?.end();
  pool = undefined;
});
