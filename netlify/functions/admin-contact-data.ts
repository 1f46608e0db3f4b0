import type { Config } from '@netlify/functions';
import { recordActivity } from '../../src/server/audit/activity.ts';
import { personCsvRows, personData } from '../../src/server/contacts/person.ts';
import { uuidSegment } from '../../src/server/http/admin-handler.ts';
import { BOM, csvLine } from '../../src/server/http/csv.ts';
import { endpoints, type MemberCall } from '../../src/server/http/endpoint.ts';
import { API_HEADERS } from '../../src/server/http/headers.ts';
import { jsonError } from '../../src/server/http/responses.ts';

/**
 * The person's right of access (ARCO), administrators only:
 * GET /api/admin/contacts/{id}/datos.json: everything stored about them, table by table.
 * GET /api/admin/contacts/{id}/datos.csv: the same, one line per stored value (tabla, id, campo, valor).
 * Each download is on the activity log.
 */
async function download({ db, url, actor }: MemberCall): Promise<Response> {
  const id = uuidSegment(url, 0);
  const format = url.pathname.endsWith('.csv') ? 'csv' : 'json';
  const data = id ? await personData(db, id) : null;
  if (!id || !data) return jsonError(404, 'No encontramos este prospecto.');
  const name = String(data.contacts[0]?.name ?? '');
  await recordActivity(db, {
    actor,
    kind: 'person_exported',
    summary: `Descargó todos los datos de ${name} (${format.toUpperCase()})`,
    details: { contact: id, format },
  });
  const file = `datos-${id.slice(0, 8)}.${format}`;
  const body =
    format === 'json'
      ? JSON.stringify(data, null, 2)
      : BOM + csvLine(['tabla', 'id', 'campo', 'valor']) + personCsvRows(data).map(csvLine).join('');
  return new Response(body, {
    headers: {
      ...API_HEADERS,
      'Content-Type': format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file}"`,
    },
  });
}

export default endpoints('admin-contact-data', [
  { method: 'GET', path: '/api/admin/contacts/:id/datos.json', access: 'admin', work: download },
  { method: 'GET', path: '/api/admin/contacts/:id/datos.csv', access: 'admin', work: download },
]);

export const config: Config = { path: ['/api/admin/contacts/:id/datos.json', '/api/admin/contacts/:id/datos.csv'] };
