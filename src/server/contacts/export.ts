import { formatCsvDate } from '../../lib/admin/columns.ts';
import { type ContactFilter, KIND_LABELS, LOST_REASON_LABELS, STATE_LABELS } from '../../lib/admin/contacts.ts';
import type { Cursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';
import { contactsAfter, toSummary } from './list.ts';

export const CONTACTS_CSV_FILE = 'prospectos.csv';

export const CONTACTS_CSV_HEADER = [
  'Primera solicitud',
  'Última actividad',
  'Nombre',
  'Teléfono',
  'Correo',
  'Municipio',
  'Tipo',
  'Estado',
  'Motivo',
  'Próximo contacto',
  'Solicitudes',
  'Primera campaña',
  'Última nota',
];

/**
 * Up to `limit` contacts of the filter after `cursor` as CSV lines, with
 * their state, last note, next contact, number of requests and first-touch
 * campaign; newest first lead first, by creation time (it never changes, so
 * nobody is skipped while leads arrive).
 */
export async function contactCsvLines(db: Queryable, filter: ContactFilter, cursor: Cursor | null, limit: number) {
  const rows = await contactsAfter(db, filter, cursor, limit, 'created');
  if (rows.length === 0) return { lines: [], last: null };
  const notes = await db.query<{ contact_id: string; body: string }>(
    `SELECT DISTINCT ON (contact_id) contact_id, body FROM contact_notes
     WHERE contact_id = ANY($1::uuid[]) AND deleted_at IS NULL
     ORDER BY contact_id, created_at DESC`,
    [rows.map((row) => row.id)],
  );
  const lastNote = new Map(notes.rows.map((note) => [note.contact_id, note.body]));
  const lines = rows.map((row) => {
    const contact = toSummary(row);
    return [
      formatCsvDate(contact.createdAt),
      formatCsvDate(contact.lastActivityAt),
      contact.name,
      contact.phone,
      contact.email ?? '',
      contact.municipality ?? '',
      contact.kinds.map((kind) => KIND_LABELS[kind]).join(' y '),
      STATE_LABELS[contact.state],
      contact.lostReason ? LOST_REASON_LABELS[contact.lostReason] : '',
      // In Mérida's time, as the other dates of the file.
      contact.nextContactAt ? formatCsvDate(contact.nextContactAt) : '',
      String(contact.requests),
      contact.firstCampaign ?? '',
      lastNote.get(contact.id) ?? '',
    ];
  });
  const last = rows.at(-1);
  return { lines, last: last ? { at: last.cursor_at, id: last.id } : null };
}
