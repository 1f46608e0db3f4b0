import { auditedExport } from '../audit/activity.ts';
import type { SignedIn } from '../auth/guard.ts';
import type { Cursor } from '../db/cursor.ts';
import type { Database } from '../db/database.ts';
import { logJson } from '../log.ts';
import { openForAdmin } from './admin-handler.ts';
import { csvStream } from './csv.ts';
import { Answered } from './endpoint.ts';
import type { Handler } from './handler.ts';
import { API_HEADERS } from './headers.ts';
import { methodNotAllowed } from './responses.ts';

/**
 * Rows read per batch of every export. A batch stays alive while its lines
 * are sent, and with 1,000 rows V8 grew a server's young generation and heap
 * for it: the first export of 100,000 quote requests made the server's
 * memory grow by 64 to 155 MB (and 68 MB for 20,000 rows: not the file, the
 * heap's size), up to about 340 MB after a few. With 250: about 43 MB for
 * the first, under 5 MB for each after, about 170 MB in all, in no more time
 * (docs/benchmarks.md, 2026-11-30, fifth session).
 */
export const CSV_BATCH_ROWS = 250;

/** One batch of an export: its CSV lines, and where the next batch starts (its last row). */
export interface CsvBatch {
  lines: string[][];
  last: Cursor | null;
}

/** What an export declares: the routine does the rest. */
export interface CsvExport<Filter extends object> {
  /** The function's name in the logs. */
  name: string;
  /** The download's file name, also what the activity log says was exported. */
  file: string;
  header: readonly string[];
  /** The request's filters (recorded with the export); it throws Answered (a 400) when they do not parse. */
  filter?(url: URL, user: SignedIn): Filter;
  /** Up to `limit` rows after `cursor`. */
  read(db: Database, filter: Filter, cursor: Cursor | null, limit: number): Promise<CsvBatch>;
  /** Added to the log line of an interrupted export. */
  logFields?: Record<string, unknown>;
}

/**
 * An administrator's CSV export (GET): the session, the rows streamed from
 * the database a batch at a time (memory stays flat whatever the table's
 * size), the activity entries (one before the first row leaves, one with the
 * row count once the stream ends), and the download's headers.
 */
export function csvExport<Filter extends object = Record<string, never>>(spec: CsvExport<Filter>): Handler {
  return async (request) => {
    if (request.method !== 'GET') return methodNotAllowed(['GET']);
    const handle = await openForAdmin(request, spec.name);
    if (handle instanceof Response) return handle;
    let filter: Filter;
    try {
      filter = spec.filter ? spec.filter(new URL(request.url), handle.user) : ({} as Filter);
    } catch (error) {
      await handle.release();
      if (error instanceof Answered) return error.response;
      throw error;
    }

    async function* batches(db: Database) {
      let cursor: Cursor | null = null;
      while (true) {
        const { lines, last } = await spec.read(db, filter, cursor, CSV_BATCH_ROWS);
        if (lines.length === 0) return;
        yield lines;
        cursor = last;
        if (lines.length < CSV_BATCH_ROWS) return;
      }
    }

    const interrupted = (error: Error) =>
      logJson('error', { function: spec.name, event: 'export_interrupted', ...spec.logFields, error: error.message });
    const audited = auditedExport(handle, spec.file, { ...filter } as Record<string, unknown>, batches(handle.db));
    return new Response(csvStream(spec.header, audited.batches, audited.onEnd, interrupted), {
      headers: {
        ...API_HEADERS,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${spec.file}"`,
      },
    });
  };
}
