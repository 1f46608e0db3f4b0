import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Migration 0029 (decision 0047): a contact's search text (what Prospectos
 * searches, src/server/contacts/list.ts) is written by a trigger instead of a
 * generated column. It must stay what the column held, on every write that
 * can change it. On the real database.
 */
let admin: pg.Pool;
const made: string[] = [];
beforeAll(() => {
  admin = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await admin.query('DELETE FROM contacts WHERE id = ANY($1)', [made]);
  await admin.end();
});

const phone = () => `+5298${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
/** The generated column's expression (migration 0004), computed on the row as it is now. */
const EXPECTED = `immutable_unaccent(lower(name || ' ' || coalesce(email, '') || ' ' || coalesce(municipality, '')))
  || ' ' || regexp_replace(phone, '[^0-9]', '', 'g')`;
const searchText = async (id: string) =>
  (
    await admin.query<{ search_text: string; expected: string }>(
      `SELECT search_text, ${EXPECTED} AS expected FROM contacts WHERE id = $1`,
      [id],
    )
  ).rows[0];

describe("a contact's search text", () => {
  it('is the name, e-mail and place in lower case without accents, then the phone’s digits', async () => {
    const number = phone();
    const { rows } = await admin.query<{ id: string }>(
      `INSERT INTO contacts (phone, name, email, municipality, is_buyer)
       VALUES ($1, 'JOSÉ Ñúñez Pérez', 'jose@ejemplo.mx', 'Mérida', true) RETURNING id`,
      [number],
    );
    const id = rows[0]?.id as string;
    made.push(id);
    expect((await searchText(id))?.search_text).toBe(`jose nunez perez jose@ejemplo.mx merida ${number.slice(1)}`);
  });

  it('follows every change of name, e-mail, place or phone, and nothing else changes it', async () => {
    const { rows } = await admin.query<{ id: string }>(
      `INSERT INTO contacts (phone, name, is_buyer) VALUES ($1, 'Rosa Chan', true) RETURNING id`,
      [phone()],
    );
    const id = rows[0]?.id as string;
    made.push(id);
    const changes = [
      `name = 'Rosalía Canché'`,
      `email = 'rosalia@ejemplo.mx'`,
      `municipality = 'Progreso'`,
      `phone = '${phone()}'`,
      `email = NULL, municipality = NULL`,
      // A value written to the column itself is replaced by the contact's own.
      `search_text = 'otra persona'`,
      `state = 'contactado'`,
    ];
    for (const change of changes) {
      await admin.query(`UPDATE contacts SET ${change} WHERE id = $1`, [id]);
      const now = await searchText(id);
      expect(now?.search_text, change).toBe(now?.expected);
    }
    expect((await searchText(id))?.search_text).toMatch(/^rosalia canche {3}\d+$/);
  });

  it('is what the column held for every contact stored, whatever wrote it', async () => {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM contacts WHERE search_text IS DISTINCT FROM ${EXPECTED}`,
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
