import { TOUCH_KEYS } from '../../lib/admin/attribution.ts';
import type { Queryable } from '../db/database.ts';

/** The name of a contact first known by a call in which no name was given (touch_contact() of 0035 says it too). */
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
 * The contact of a new lead, inside the lead's transaction, in one statement:
 * touch_contact() (db/migrations/0035_repeat_lead_keeps_name_and_sale.sql)
 * creates it on the first lead from a phone (with the round-robin's next
 * adviser), or brings it up to date (latest non-empty e-mail and place, kind,
 * latest attribution, last activity) keeping its name (another one is an
 * alias in its history; NAMELESS takes the name); a lost contact reopens as
 * `nuevo`, a won one stays won, and its history says so. Concurrent first leads from one phone give one
 * contact. A form's lead does the same inside store_leads_together(); a voice call
 * comes here. Returns the contact's id.
 */
export async function touchContact(tx: Queryable, touch: ContactTouch): Promise<string> {
  const attribution = Object.fromEntries(
    TOUCH_KEYS.filter((key) => touch.row[key] !== null && touch.row[key] !== undefined).map((key) => [
      key,
      String(touch.row[key]),
    ]),
  );
  const { rows } = await tx.query<{ id: string }>('SELECT touch_contact($1, $2, $3, $4, $5, $6, $7) AS id', [
    touch.phone,
    touch.name,
    NAMELESS,
    touch.email,
    touch.municipality,
    touch.kind === 'comprador',
    attribution,
  ]);
  const id = rows[0]?.id;
  if (!id) throw new Error('touch_contact returned no contact');
  return id;
}
