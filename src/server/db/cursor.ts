import { isUuid } from '../../lib/ids.ts';

/**
 * Position in a newest-first list (keyset pagination): the ordering time of
 * the last row, to the microsecond as PostgreSQL keeps it, and its id. Shared
 * by the lead lists and the contact list.
 */
export interface Cursor {
  at: string;
  id: string;
}

/** The ordering column as a cursor's time: `to_char(<column> …) AS cursor_at` in the SELECT. */
export const cursorTime = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at`;

const CURSOR_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{6}Z$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url');
}

/** A real UTC time: one that survives a round trip (no 13th month, no 30 February). */
function isRealTime(value: string): boolean {
  const seconds = CURSOR_TIME.exec(value)?.[1];
  if (!seconds) return false;
  const time = new Date(`${seconds}Z`);
  // A year PostgreSQL takes as a timestamptz (JavaScript takes year 0, which PostgreSQL refuses: a 503).
  const year = time.getUTCFullYear();
  return !Number.isNaN(time.getTime()) && year >= 1900 && year <= 2999 && time.toISOString().startsWith(seconds);
}

/** null for an absent cursor; 'invalid' for one that was not made by encodeCursor. */
export function decodeCursor(value: string | null): Cursor | null | 'invalid' {
  if (!value) return null;
  const [at, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  return at && id && rest.length === 0 && isRealTime(at) && isUuid(id) ? { at, id } : 'invalid';
}
