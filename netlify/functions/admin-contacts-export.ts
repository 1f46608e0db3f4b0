import type { Config } from '@netlify/functions';
import { formatCsvDate } from '../../src/lib/admin/columns.ts';
import { type ContactFilter, KIND_LABELS, LOST_REASON_LABELS, STATE_LABELS } from '../../src/lib/admin/contacts.ts';
import { csvStream } from '../../src/server/admin/csv.ts';
import type { Cursor } from '../../src/server/admin/cursor.ts';
import { contactsAfter, toSummary } from '../../src/server/contacts/list.ts';
import type { Database } from '../../src/server/db/database.ts';
import { openForAdmin } from '../../src/server/http/admin-handler.ts';
import { contactFilterFrom } from '../../src/server/http/contact-filter.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { logged } from '../../src/server/http/logging.ts';
import { methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { auditedExport } from '../../src/server/team/activity.ts';

const BATCH = 1000;
const HEADER = [
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
 * GET /api/admin/contacts/export.csv?(the list's filters): one row per
 * contact with its state, last note, next contact, number of requests and
 * first-touch campaign; newest first lead first, streamed in batches by
 * creation time (it never changes, so nobody is skipped while leads arrive),
 * formula-safe, UTF-8 with BOM.
 */
export default logged('admin-contacts-export', async (request: Request): Promise<Response> => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const handle = await openForAdmin(request, 'admin-contacts-export');
  if (handle instanceof Response) return handle;
  const parsed = contactFilterFrom(new URL(request.url), handle.user.id);
  if (parsed instanceof Response) {
    await handle.release();
    return parsed;
  }
  const filter: ContactFilter = parsed;

  async function* batches(db: Database) {
    let cursor: Cursor | null = null;
    while (true) {
      const rows = await contactsAfter(db, filter, cursor, BATCH, 'created');
      if (rows.length === 0) return;
      const notes = await db.query<{ contact_id: string; body: string }>(
        `SELECT DISTINCT ON (contact_id) contact_id, body FROM contact_notes
         WHERE contact_id = ANY($1::uuid[]) AND deleted_at IS NULL
         ORDER BY contact_id, created_at DESC`,
        [rows.map((row) => row.id)],
      );
      const lastNote = new Map(notes.rows.map((note) => [note.contact_id, note.body]));
      yield rows.map((row) => {
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
          contact.nextContactAt ?? '',
          String(contact.requests),
          contact.firstCampaign ?? '',
          lastNote.get(contact.id) ?? '',
        ];
      });
      const last = rows.at(-1);
      cursor = last ? { at: last.cursor_at, id: last.id } : null;
      if (rows.length < BATCH) return;
    }
  }

  const interrupted = (error: Error) =>
    logJson('error', { function: 'admin-contacts-export', event: 'export_interrupted', error: error.message });
  const audited = auditedExport(handle, 'prospectos.csv', { ...filter }, batches(handle.db));
  return new Response(csvStream(HEADER, audited.batches, audited.onEnd, interrupted), {
    headers: {
      ...API_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="prospectos.csv"',
    },
  });
});

export const config: Config = { path: '/api/admin/contacts/export.csv' };
