import { type ContactFilter, contactFilterSchema } from '../../lib/admin/contacts.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { jsonError } from './responses.ts';

/**
 * The contact list's filters from a query string (empty values mean "not
 * given"), with `assigned=me` turned into the member's id; or the 400 to answer.
 */
export function contactFilterFrom(url: URL, memberId: string): ContactFilter | Response {
  const params = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ''));
  const filter = contactFilterSchema.safeParse(params);
  if (!filter.success) return jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(filter.error) });
  return filter.data.assigned === 'me' ? { ...filter.data, assigned: memberId } : filter.data;
}
