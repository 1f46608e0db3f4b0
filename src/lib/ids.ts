/**
 * The one pattern of our ids (PostgreSQL's `gen_random_uuid()`, lower case as
 * the database writes them): every path segment, cursor and session claim
 * that names a row is checked with it before it reaches a query.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
