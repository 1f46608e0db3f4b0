import type { Config } from '@netlify/functions';
import { isUuid } from '../../src/lib/ids.ts';
import { formatCsvDate } from '../../src/lib/leads/columns.ts';
import { CSV_FILE_NAMES, isLeadKind, LEAD_KIND_REGISTRY, type LeadKind } from '../../src/lib/leads/kinds.ts';
import { displayName } from '../../src/server/auth/users.ts';
import { decodeCursor } from '../../src/server/db/cursor.ts';
import { adminLeadHandler } from '../../src/server/http/admin-handler.ts';
import { csvExport } from '../../src/server/http/csv-export.ts';
import type { Handler, RequestContext } from '../../src/server/http/handler.ts';
import { logged } from '../../src/server/http/logging.ts';
import { empty, json, jsonError } from '../../src/server/http/responses.ts';
import { deleteLead, leadsAfter, listLeads } from '../../src/server/leads/list.ts';

const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** GET /api/admin/{kind}?cursor=&limit=: one page of leads, newest first, with the total. */
const list = adminLeadHandler('GET', async ({ request, db, kind }) => {
  const params = new URL(request.url).searchParams;
  const cursor = decodeCursor(params.get('cursor'));
  const limit = Number(params.get('limit') ?? PAGE_SIZE);
  if (cursor === 'invalid' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    return jsonError(400, 'Parámetros de paginación no válidos.');
  }
  return json(200, await listLeads(db, kind, cursor, limit));
});

/** DELETE /api/admin/{kind}/{id}: deletes one lead, on the activity log (same-origin requests only). */
const remove = adminLeadHandler('DELETE', async ({ db, kind, rest: id, user }) => {
  if (!isUuid(id)) return jsonError(404, 'La solicitud no existe.');
  const deleted = await deleteLead(db, kind, id, { id: user.id, name: displayName(user) });
  return deleted ? empty(204) : jsonError(404, 'La solicitud no existe.');
});

/** GET /api/admin/{kind}/export.csv: every lead of a kind, newest first, with the panel's columns. */
const exports = Object.fromEntries(
  LEAD_KIND_REGISTRY.map(({ kind, columns }) => [
    kind,
    csvExport({
      name: 'admin-leads',
      file: CSV_FILE_NAMES[kind],
      header: ['Fecha', ...columns.map((column) => column.header)],
      logFields: { kind },
      async read(db, _filter, cursor, limit) {
        const rows = await leadsAfter(db, kind, cursor, limit);
        return {
          lines: rows.map(({ row }) => [formatCsvDate(row.created_at), ...columns.map((column) => column.value(row))]),
          last: rows.at(-1)?.cursor ?? null,
        };
      },
    }),
  ]),
) as Record<LeadKind, Handler>;

const PATH = /^\/api\/admin\/([a-z-]+)(?:\/([^/]+))?$/;

/** Every kind of lead in the registry: its list, one lead, its export (the paths below, one kind's per line). */
export default logged('admin-leads', async (request: Request, context: RequestContext) => {
  const [, kind, rest] = PATH.exec(new URL(request.url).pathname) ?? [];
  if (!isLeadKind(kind)) return jsonError(404, 'Tipo de solicitud desconocido.');
  if (rest === 'export.csv') return exports[kind](request, context);
  return (rest === undefined ? list : remove)(request, context);
});

// Literal, as Netlify reads it from the source: tests/api/routes.test.ts checks it against the registry.
export const config: Config = {
  path: [
    '/api/admin/quote-requests',
    '/api/admin/quote-requests/:id',
    '/api/admin/quote-requests/export.csv',
    '/api/admin/partner-applications',
    '/api/admin/partner-applications/:id',
    '/api/admin/partner-applications/export.csv',
    '/api/admin/quick-quotes',
    '/api/admin/quick-quotes/:id',
    '/api/admin/quick-quotes/export.csv',
  ],
};
