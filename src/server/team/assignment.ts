import type { Queryable } from '../db/database.ts';

/**
 * With the round-robin on, a new contact goes to the next active adviser
 * (in a fixed order, after the one who got the last), inside the lead's
 * transaction; its history says so. The settings row is locked only while
 * the round-robin is on, so new contacts queue for it only then.
 */
export async function assignRoundRobin(tx: Queryable, contactId: string): Promise<void> {
  const settings = await tx.query<{ round_robin: boolean }>('SELECT round_robin FROM team_settings');
  if (!settings.rows[0]?.round_robin) return;
  const locked = await tx.query<{ round_robin: boolean; last_assigned: string | null }>(
    'SELECT round_robin, last_assigned FROM team_settings FOR UPDATE',
  );
  const current = locked.rows[0];
  if (!current?.round_robin) return;
  const { rows } = await tx.query<{ id: string; name: string }>(
    `SELECT u.id, coalesce(u.name, u.email) AS name
     FROM users u JOIN user_roles r ON r.user_id = u.id
     WHERE r.role = 'asesor' AND u.deactivated_at IS NULL
     ORDER BY (u.id > coalesce($1::uuid, '00000000-0000-0000-0000-000000000000'::uuid)) DESC, u.id
     LIMIT 1`,
    [current.last_assigned],
  );
  const next = rows[0];
  if (!next) return;
  await tx.query('UPDATE contacts SET assigned_to = $2 WHERE id = $1', [contactId, next.id]);
  await tx.query('UPDATE team_settings SET last_assigned = $1', [next.id]);
  await tx.query(
    `INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
     VALUES ($1, 'assigned', NULL, $2, 'Asignación automática (por turnos)')`,
    [contactId, next.name],
  );
}
