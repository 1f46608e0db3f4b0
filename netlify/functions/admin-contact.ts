import type { Config } from '@netlify/functions';
import { catalogueModel } from '../../src/lib/admin/catalogue.ts';
import { contactChangeSchema, MODEL_UNKNOWN, STALE_VERSION } from '../../src/lib/admin/contacts.ts';
import { ADMIN_ONLY } from '../../src/server/auth/guard.ts';
import { changeContact } from '../../src/server/contacts/change.ts';
import { getContact } from '../../src/server/contacts/detail.ts';
import { CONTACTS_CSV_FILE, CONTACTS_CSV_HEADER, contactCsvLines } from '../../src/server/contacts/export.ts';
import { erasePerson } from '../../src/server/contacts/person.ts';
import { uuidSegment } from '../../src/server/http/admin-handler.ts';
import { contactFilterFrom } from '../../src/server/http/contact-filter.ts';
import { csvExport } from '../../src/server/http/csv-export.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import type { RequestContext } from '../../src/server/http/handler.ts';
import { json, jsonError } from '../../src/server/http/responses.ts';

const NOT_FOUND = 'No encontramos este prospecto.';

/**
 * GET /api/admin/contacts/export.csv?(the list's filters), administrators: one
 * row per contact, streamed, formula-safe, UTF-8 with BOM. Its path is also
 * one of `{id}`'s, so this function serves it: no two functions share a URL.
 */
const exportContacts = csvExport({
  name: 'admin-contact',
  file: CONTACTS_CSV_FILE,
  header: CONTACTS_CSV_HEADER,
  filter: (url, user) => contactFilterFrom(url, user.id),
  read: contactCsvLines,
});

/**
 * GET /api/admin/contacts/{id}: the contact and its timeline.
 * PATCH /api/admin/contacts/{id} {state?, lostReason?, nextContactAt?, assignedTo?, modelId?, estimatedValue?,
 *   expectedCloseOn?, version}: 409 on a stale version (the pipeline's moves come this way too).
 * DELETE /api/admin/contacts/{id} (administrators): erases the person and everything of theirs (ARCO).
 */
const PATH = '/api/admin/contacts/:id';

const contact = endpoints('admin-contact', [
  {
    method: 'GET',
    path: PATH,
    access: 'member',
    async work({ db, url }) {
      const id = uuidSegment(url, 0);
      const contact = id ? await getContact(db, id) : null;
      return contact ? json(200, contact) : jsonError(404, NOT_FOUND);
    },
  },
  {
    method: 'PATCH',
    path: PATH,
    access: 'member',
    async work({ db, user, url, actor, body }) {
      const id = uuidSegment(url, 0);
      if (!id) return jsonError(404, NOT_FOUND);
      const change = { data: await body(contactChangeSchema, 'Revisa el cambio.') };
      // Advisers work their contacts; who follows whom is the administrators' call.
      if (change.data.assignedTo !== undefined && !user.admin) return jsonError(403, ADMIN_ONLY);
      if (change.data.modelId && !catalogueModel(change.data.modelId)) {
        return jsonError(400, 'Revisa el cambio.', { fields: { modelId: MODEL_UNKNOWN } });
      }
      const result = await changeContact(db, id, change.data, actor);
      if (result === 'not_found') return jsonError(404, NOT_FOUND);
      if (result === 'stale') return jsonError(409, STALE_VERSION);
      if (result === 'no_member') {
        return jsonError(400, 'Revisa el cambio.', { fields: { assignedTo: 'Elige a un miembro activo del equipo.' } });
      }
      return json(200, result.contact);
    },
  },
  {
    method: 'DELETE',
    path: PATH,
    access: 'member',
    async work({ db, user, url, actor }) {
      const id = uuidSegment(url, 0);
      if (!id) return jsonError(404, NOT_FOUND);
      // The person's right of cancellation: everything of theirs goes (administrators only).
      if (!user.admin) return jsonError(403, ADMIN_ONLY);
      const erased = await erasePerson(db, id, actor);
      return erased ? json(200, erased) : jsonError(404, NOT_FOUND);
    },
  },
]);

export default (request: Request, context: RequestContext) =>
  new URL(request.url).pathname === '/api/admin/contacts/export.csv'
    ? exportContacts(request, context)
    : contact(request, context);

export const config: Config = { path: '/api/admin/contacts/:id' };
