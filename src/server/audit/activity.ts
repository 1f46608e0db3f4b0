import type { ActivityEntry, ActivityKind, ActivityPage } from '../../lib/admin/team.ts';
import { type Cursor, cursorTime, decodeCursor, encodeCursor } from '../db/cursor.ts';
import type { Queryable } from '../db/database.ts';

export interface Actor {
  id: string;
  name: string;
}

/**
 * Appends one entry to the activity log: who (null for an unknown visitor,
 * e.g. a failed sign-in), what, and from where. The table refuses updates and
 * deletes (a trigger): the application has no path to change the record.
 *
 * The rule (docs/decisions/0028-layers-routes-and-audit-trail.md): a change's
 * entry is written by the domain module that makes the change, with the
 * transaction that makes it (`tx`), so both commit or neither does; a
 * function never writes one after the change. Two kinds of entry record no
 * change: a read that hands data out (an export, recorded when it is handed
 * out) and a sign-in attempt (login-limit.ts), whose count is committed
 * before its secret is checked, by design.
 */
export async function recordActivity(
  db: Queryable,
  entry: { actor: Actor | null; kind: ActivityKind; summary: string; details?: object; ip?: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (actor_id, actor_name, kind, summary, details, ip) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      entry.actor?.id ?? null,
      entry.actor?.name ?? null,
      entry.kind,
      entry.summary.slice(0, 500),
      JSON.stringify(entry.details ?? {}),
      entry.ip ?? null,
    ],
  );
}

const PAGE = 50;

/** The log, newest first, optionally by member and by kind. */
export async function listActivity(
  db: Queryable,
  filter: { actor?: string; kind?: ActivityKind; cursor?: string },
): Promise<ActivityPage | 'invalid-cursor'> {
  const cursor: Cursor | null | 'invalid' = decodeCursor(filter.cursor ?? null);
  if (cursor === 'invalid') return 'invalid-cursor';
  const { rows } = await db.query<{
    id: string;
    at: Date;
    actor_id: string | null;
    actor_name: string | null;
    kind: ActivityKind;
    summary: string;
    ip: string | null;
    cursor_at: string;
  }>(
    `SELECT id, at, actor_id, actor_name, kind, summary, ip, ${cursorTime('at')}
     FROM activity_log
     WHERE ($1::uuid IS NULL OR actor_id = $1)
       AND ($2::text IS NULL OR kind = $2)
       AND ($3::timestamptz IS NULL OR (at, id) < ($3::timestamptz, $4::uuid))
     ORDER BY at DESC, id DESC
     LIMIT ${PAGE + 1}`,
    [filter.actor ?? null, filter.kind ?? null, cursor?.at ?? null, cursor?.id ?? null],
  );
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);
  return {
    items: page.map(
      (row): ActivityEntry => ({
        id: row.id,
        at: new Date(row.at).toISOString(),
        actorId: row.actor_id,
        actorName: row.actor_name,
        kind: row.kind,
        summary: row.summary,
        ip: row.ip,
      }),
    ),
    nextCursor: rows.length > PAGE && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/**
 * Wraps an export's batches so the rows sent are counted, and gives the
 * stream's end handler. The export is on the activity log before its first
 * row leaves (which, with which filters: a process killed mid-export, such
 * as a function past its time limit, cannot send rows nobody recorded), and
 * again when the stream ends, with how many rows it sent; the end handler
 * then releases the database.
 */
export function auditedExport(
  handle: { db: Queryable; release(): Promise<void>; user: { id: string; name: string | null; email: string } },
  which: string,
  filters: Record<string, unknown>,
  batches: AsyncIterable<string[][]>,
): { batches: AsyncGenerator<string[][]>; onEnd(): Promise<void> } {
  let rows = 0;
  const used = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''));
  const actor = { id: handle.user.id, name: handle.user.name ?? handle.user.email };
  async function* counted() {
    let started = false;
    for await (const batch of batches) {
      if (!started) {
        started = true;
        await recordActivity(handle.db, {
          actor,
          kind: 'export',
          summary: `Empezó a exportar ${which}`,
          details: { which, started: true, filters: used },
        });
      }
      rows += batch.length;
      yield batch;
    }
  }
  return {
    batches: counted(),
    async onEnd() {
      try {
        await recordActivity(handle.db, {
          actor,
          kind: 'export',
          summary: `Exportó ${which}: ${rows} ${rows === 1 ? 'fila' : 'filas'}`,
          details: { which, rows, filters: used },
        });
      } finally {
        await handle.release();
      }
    },
  };
}
