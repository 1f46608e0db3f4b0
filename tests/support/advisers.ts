/** A query function: the tests' `sql` (tests/support/sql.ts) or the browser stories' own. */
type Sql = <R extends Record<string, unknown> = Record<string, unknown>>(
  text: string,
  values?: unknown[],
) => Promise<R[]>;

/**
 * An adviser who gives `kind` every day at every hour (Mérida's clock), so
 * any slot of the kind's places is theirs to take: the member's id.
 */
export async function seedMemberGiving(sql: Sql, kind: string, name: string): Promise<string> {
  const [member] = await sql<{ id: string }>(
    `INSERT INTO users (email, password_hash, name) VALUES ($1, '$2b$10$sinusoxxxxxxxxxxxxxxxx', $2) RETURNING id`,
    [`${kind}-${Math.random().toString(36).slice(2, 10)}@ceiba.mx`, name],
  );
  await sql(`INSERT INTO user_roles (user_id, role) VALUES ($1, 'asesor')`, [member?.id]);
  await sql(`INSERT INTO member_appointment_kinds (member_id, kind) VALUES ($1, $2)`, [member?.id, kind]);
  await sql(
    `INSERT INTO member_weekly_hours (member_id, weekday, starts, ends, time_zone)
     SELECT $1, day, '00:00', '23:59', 'America/Merida' FROM generate_series(1, 7) AS day`,
    [member?.id],
  );
  return member?.id as string;
}
