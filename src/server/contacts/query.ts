import { type ContactFilter, contactFilterSchema } from '../../lib/admin/contacts.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { jsonError } from '../http/responses.ts';

/** The contact list's filters from a query string (empty values mean "not given"), or the 400 to answer. */
export function contactFilterFrom(url: URL): ContactFilter | Response {
  const params = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ''));
  const filter = contactFilterSchema.safeParse(params);
  return filter.success ? filter.data : jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(filter.error) });
}
