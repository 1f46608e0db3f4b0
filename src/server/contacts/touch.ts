import { ATTRIBUTION_KEYS } from '../../lib/admin/attribution.ts';
import type { Queryable } from '../db/database.ts';
import { assignRoundRobin } from '../team/assignment.ts';

const CLOSED = new Set(['cerrado_ganado', 'cerrado_perdido']);
/** The name of a contact first known by a call in which no name was given. */
export const NAMELESS = 'Visitante (llamada de voz)';

export interface ContactTouch {
  phone: string;
  /** null (a voice call without a name): a new contact is called NAMELESS, an existing one keeps its name. */
  name: string | null;
  email: string | null;
  municipality: string | null;
  kind: 'comprador' | 'socio';
  /** The lead's row: its attribution columns are read from it. */
  row: Record<string, unknown>;
}

/**
 * The contact of a new lead, inside the lead's transaction: created on the
 * first lead from a phone, or brought up to date (latest name, latest
 * non-empty e-mail and place, kind, latest attribution, last activity). A
 * closed contact reopens as `nuevo`, and its history says so. Concurrent first
 * leads from one phone give one contact: the unique phone makes the second
 * INSERT wait, then update. Returns the contact's id.
 */
export async function touchContact(tx: Queryable, touch: ContactTouch): Promise<string> {
  const attribution = Object.fromEntries(
    ATTRIBUTION_KEYS.filter((key) => touch.row[key] !== null && touch.row[key] !== undefined).map((key) => [
      key,
      String(touch.row[key]),
    ]),
  );
  const buyer = touch.kind === 'comprador';
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO contacts (phone, name, email, municipality, is_buyer, is_partner, first_touch, last_touch)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (phone) DO NOTHING
     RETURNING id`,
    [touch.phone, touch.name ?? NAMELESS, touch.email, touch.municipality, buyer, !buyer, attribution],
  );
  const created = inserted.rows[0];
  if (created) {
    await assignRoundRobin(tx, created.id);
    return created.id;
  }

  const { rows } = await tx.query<{ id: string; state: string }>(
    'SELECT id, state FROM contacts WHERE phone = $1 FOR UPDATE',
    [touch.phone],
  );
  const existing = rows[0];
  if (!existing) throw new Error('contact vanished while its lead was stored');
  const reopen = CLOSED.has(existing.state);
  await tx.query(
    `UPDATE contacts SET
       name = coalesce($2, name),
       email = coalesce($3, email),
       municipality = coalesce($4, municipality),
       is_buyer = is_buyer OR $5,
       is_partner = is_partner OR NOT $5,
       last_touch = CASE WHEN $6::jsonb = '{}' THEN last_touch ELSE $6::jsonb END,
       last_activity_at = now(),
       state = CASE WHEN $7 THEN 'nuevo' ELSE state END,
       lost_reason = CASE WHEN $7 THEN NULL ELSE lost_reason END,
       version = version + CASE WHEN $7 THEN 1 ELSE 0 END
     WHERE id = $1`,
    [existing.id, touch.name, touch.email, touch.municipality, buyer, attribution, reopen],
  );
  if (reopen) {
    await tx.query(
      `INSERT INTO contact_events (contact_id, kind, from_value, to_value, detail)
       VALUES ($1, 'reopened', $2, 'nuevo', 'Nueva solicitud de un prospecto cerrado')`,
      [existing.id, existing.state],
    );
  }
  return existing.id;
}
