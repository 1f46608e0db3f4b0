import { type ContactFilter, contactFilterSchema } from '../../lib/admin/contacts.ts';
import { fieldMessages } from '../../lib/forms/errors.ts';
import { Answered } from './endpoint.ts';
import { jsonError } from './responses.ts';

/**
 * The contact list's filters from a query string (empty values mean "not
 * given"), with `assigned=me` turned into the member's id; the 400 is answered
 * (thrown as Answered, which the wrappers of http/ catch) when they do not parse.
 */
export function contactFilterFrom(url: URL, memberId: string): ContactFilter {
  const params = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ''));
  const filter = contactFilterSchema.safeParse(params);
  if (!filter.success)
    throw new Answered(jsonError(400, 'Revisa los filtros.', { fields: fieldMessages(filter.error) }));
  return filter.data.assigned === 'me' ? { ...filter.data, assigned: memberId } : filter.data;
}
