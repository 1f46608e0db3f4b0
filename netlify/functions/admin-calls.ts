import type { Config } from '@netlify/functions';
import { formatCsvDate } from '../../src/lib/admin/columns.ts';
import { CALL_KIND, endedReasonLabel } from '../../src/lib/voice/calls.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { uuidSegment } from '../../src/server/http/admin-handler.ts';
import { csvExport } from '../../src/server/http/csv-export.ts';
import { routedHandler } from '../../src/server/http/endpoint.ts';
import type { RequestContext } from '../../src/server/http/handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';
import { deliveriesOfLeads } from '../../src/server/outbox/deliveries.ts';
import { callsAfter, getCall, listCalls } from '../../src/server/voice/call-store.ts';

const NOT_FOUND = 'No encontramos esta llamada.';
const EXPORT_PATH = '/api/admin/calls/export.csv';

// routedHandler: `endpoints` without its log line, which the default export below writes for both.
const calls = routedHandler('admin-calls', [
  {
    method: 'GET',
    path: '/api/admin/calls',
    access: 'member',
    async work({ db, url }) {
      const cursor = decodeCursor(url.searchParams.get('cursor') || null);
      if (cursor === 'invalid') return jsonError(400, 'Parámetros de paginación no válidos.');
      return json(200, await listCalls(db, cursor));
    },
  },
  {
    method: 'GET',
    path: '/api/admin/calls/:id',
    access: 'member',
    async work({ db, url }) {
      const id = uuidSegment(url, 0);
      const call = id ? await getCall(db, id) : null;
      if (!call) return jsonError(404, NOT_FOUND);
      const deliveries = await deliveriesOfLeads(db, CALL_KIND, [call.id]);
      return json(200, { ...call, deliveries: deliveries[call.id] ?? [] });
    },
  },
]);

/** Administrators only: every call, oldest first, on the activity log. */
const exportCalls = csvExport({
  name: 'admin-calls',
  file: 'llamadas.csv',
  header: [
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
  ],
  async read(db, _filter, cursor, limit) {
    const rows = await callsAfter(db, cursor, limit, 'oldest');
    const last = rows.at(-1);
    return {
      lines: rows.map((row) => [
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
      ]),
      last: last ? { at: last.cursor_at, id: last.id } : null,
    };
  },
});

/**
 * The voice calls (administrators and advisers, like contacts):
 * GET /api/admin/calls?cursor=: newest first, 50 a page.
 * GET /api/admin/calls/{id}: one call with its conversation, and its notifications.
 * GET /api/admin/calls/export.csv (administrators): every call, formula-safe, UTF-8 with BOM.
 */
export default logged('admin-calls', async (request: Request, context: RequestContext) =>
  (new URL(request.url).pathname === EXPORT_PATH ? exportCalls : calls)(request, context),
);

export const config: Config = { path: ['/api/admin/calls', '/api/admin/calls/:id', '/api/admin/calls/export.csv'] };
