import type { Config } from '@netlify/functions';
import { formatCsvDate } from '../../src/lib/admin/columns.ts';
import { endedReasonLabel } from '../../src/lib/voice/calls.ts';
import { csvStream } from '../../src/server/admin/csv.ts';
import type { Cursor } from '../../src/server/admin/cursor.ts';
import type { Database } from '../../src/server/db/database.ts';
import { openForAdmin } from '../../src/server/http/admin-handler.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { logged } from '../../src/server/http/logging.ts';
import { methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { auditedExport } from '../../src/server/team/activity.ts';
import { callsAfter } from '../../src/server/voice/call-store.ts';

const BATCH = 500;
const HEADER = [
  'Fecha',
  'Duración (s)',
  'Motivo de fin',
  'Nombre',
  'Teléfono',
  'Correo',
  'Interés',
  'Resumen',
  'Página',
  'Grabación',
  'Prospecto',
  'Id de la llamada',
];

/**
 * GET /api/admin/calls/export.csv (administrators): every call, oldest first,
 * streamed in batches, formula-safe, UTF-8 with BOM; on the activity log.
 */
export default logged('admin-calls-export', async (request: Request): Promise<Response> => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const handle = await openForAdmin(request, 'admin-calls-export');
  if (handle instanceof Response) return handle;

  async function* batches(db: Database) {
    let cursor: Cursor | null = null;
    while (true) {
      const rows = await callsAfter(db, cursor, BATCH, 'oldest');
      if (rows.length === 0) return;
      yield rows.map((row) => [
        formatCsvDate(new Date(row.created_at).toISOString()),
        row.duration_seconds === null ? '' : String(Number(row.duration_seconds)),
        row.ended_reason ? endedReasonLabel(row.ended_reason) : '',
        row.name ?? '',
        row.phone ?? '',
        row.email ?? '',
        row.interest ?? '',
        row.summary ?? '',
        row.page_path ?? '',
        row.recording_url ?? '',
        row.contact_name ?? '',
        row.call_id,
      ]);
      const last = rows.at(-1);
      cursor = last ? { at: last.cursor_at, id: last.id } : null;
      if (rows.length < BATCH) return;
    }
  }

  const interrupted = (error: Error) =>
    logJson('error', { function: 'admin-calls-export', event: 'export_interrupted', error: error.message });
  const audited = auditedExport(handle, 'llamadas.csv', {}, batches(handle.db));
  return new Response(csvStream(HEADER, audited.batches, audited.onEnd, interrupted), {
    headers: {
      ...API_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="llamadas.csv"',
    },
  });
});

export const config: Config = { path: '/api/admin/calls/export.csv' };
