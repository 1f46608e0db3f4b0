import type { Config } from '@netlify/functions';
import { COLUMNS, formatCsvDate, isLeadKind, type LeadKind } from '../../src/lib/admin/columns.ts';
import { csvStream } from '../../src/server/admin/csv.ts';
import { CSV_FILE_NAMES, leadsAfter } from '../../src/server/admin/leads.ts';
import type { Database } from '../../src/server/db/database.ts';
import { openForAdmin } from '../../src/server/http/admin-handler.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { logged } from '../../src/server/http/logging.ts';
import { jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { auditedExport } from '../../src/server/team/activity.ts';

const BATCH = 1000;

/**
 * GET /api/admin/{kind}/export.csv: every lead of a kind, newest first,
 * streamed from the database a thousand rows at a time, so memory stays flat
 * whatever the table's size.
 */
export default logged('admin-export', async (request: Request): Promise<Response> => {
  if (request.method !== 'GET') return methodNotAllowed(['GET']);
  const segment = new URL(request.url).pathname.split('/')[3];
  if (!isLeadKind(segment)) return jsonError(404, 'Tipo de solicitud desconocido.');
  const kind: LeadKind = segment;

  const handle = await openForAdmin(request, 'admin-export');
  if (handle instanceof Response) return handle;

  const columns = COLUMNS[kind];
  const header = ['Fecha', ...columns.map((column) => column.header)];
  async function* batches(db: Database) {
    let cursor: Parameters<typeof leadsAfter>[2] = null;
    while (true) {
      const rows = await leadsAfter(db, kind, cursor, BATCH);
      if (rows.length === 0) return;
      yield rows.map(({ row }) => [formatCsvDate(row.created_at), ...columns.map((column) => column.value(row))]);
      cursor = rows.at(-1)?.cursor ?? null;
      if (rows.length < BATCH) return;
    }
  }

  const interrupted = (error: Error) =>
    logJson('error', { function: 'admin-export', event: 'export_interrupted', kind, error: error.message });
  const audited = auditedExport(handle, CSV_FILE_NAMES[kind], {}, batches(handle.db));
  return new Response(csvStream(header, audited.batches, audited.onEnd, interrupted), {
    headers: {
      ...API_HEADERS,
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${CSV_FILE_NAMES[kind]}"`,
    },
  });
});

export const config: Config = {
  path: '/api/admin/:kind/export.csv',
  excludedPath: ['/api/admin/contacts/export.csv', '/api/admin/calls/export.csv'],
};
