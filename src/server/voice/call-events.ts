import { TOUCH_KEYS } from '../../lib/admin/attribution.ts';
import type { Database, Queryable } from '../db/database.ts';
import { logJson } from '../log.ts';
import type { CallInfo, ToolCallRequest } from './report.ts';
import { runTool } from './tools.ts';

/**
 * A call on record while it runs (issue #42, decision 0071): its row is made
 * by its first server message (a status update or a tool call) with the
 * page and attribution the widget passed, and each status and tool call is
 * a line of it (voice_call_events, migration 0044), which the contact's
 * history shows once the call has a contact. The end-of-call report then
 * completes the same row (call-store.ts).
 */

const OPEN_CALL = `INSERT INTO voice_calls (call_id, page_path, ${TOUCH_KEYS.join(', ')})
  VALUES ($1, $2, ${TOUCH_KEYS.map((_, index) => `$${index + 3}`).join(', ')})
  ON CONFLICT (call_id) DO NOTHING`;

function callValues(call: CallInfo): unknown[] {
  const metadata = call.metadata as Record<string, string | undefined>;
  return [call.callId, call.metadata.page ?? null, ...TOUCH_KEYS.map((key) => metadata[key] ?? null)];
}

/** The call's row, made once (concurrent first messages make one). */
export async function openCall(db: Queryable, call: CallInfo): Promise<void> {
  await db.query(OPEN_CALL, callValues(call));
}

/** A status update: the call's status, and a line the first time the call reaches it. */
export async function recordStatus(
  db: Database,
  call: CallInfo,
  status: string,
  endedReason: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await openCall(tx, call);
    await tx.query(
      `WITH line AS (
         INSERT INTO voice_call_events (call_id, kind, name, result) VALUES ($1, 'status', $2, $3)
         ON CONFLICT (call_id, name) WHERE kind = 'status' DO NOTHING)
       UPDATE voice_calls SET status = $2,
         ended_reason = CASE WHEN $3::text IS NOT NULL THEN coalesce(ended_reason, $3) ELSE ended_reason END
       WHERE call_id = $1`,
      [call.callId, status.slice(0, 40), endedReason],
    );
  });
}

/** What the agent hears when a tool could not run (the database was down): it may offer to try again. */
export const TOOL_DOWN =
  'En este momento no pude hacerlo por una falla de nuestro sistema. Puedes intentarlo de nuevo en un momento, o un asesor te escribirá.';

export interface ToolAnswers {
  /** Each tool call's answer (`result`), or `error` when it could not run. */
  results: ({ toolCallId: string; name: string } & ({ result: string } | { error: string }))[];
  /** Lead notifications queued by the tools (their jobs are the caller's to hurry). */
  deliveries: string[];
}

/**
 * Answers a `tool-calls` message: each tool call in order, a call already
 * answered (the platform retried, or sent it twice) with its first answer
 * and no second effect. Concurrent copies of one id may both run: every
 * effect is idempotent by its own key (tools.ts), and the first answer
 * stored is the one both return. Each tool stands alone: one that fails is
 * answered TOOL_DOWN without taking the others' answers with it, and a tool
 * that did its work is answered with it even when its line could not be
 * stored (told it failed, the agent would try again under a new id, and a
 * visit would be booked twice).
 */
export async function answerToolCalls(
  db: Database,
  call: CallInfo,
  toolCalls: readonly ToolCallRequest[],
  now: number,
): Promise<ToolAnswers> {
  const { rows } = await db.query<{ tool_call_id: string; result: string }>(
    `WITH made AS (${OPEN_CALL})
     SELECT tool_call_id, result FROM voice_call_events WHERE call_id = $1 AND tool_call_id = ANY($${TOUCH_KEYS.length + 3})`,
    [...callValues(call), toolCalls.map((toolCall) => toolCall.id)],
  );
  const answered = new Map(rows.map((row) => [row.tool_call_id, row.result]));
  const results: ToolAnswers['results'] = [];
  const deliveries: string[] = [];
  for (const toolCall of toolCalls) {
    let result = answered.get(toolCall.id);
    const logToolError = (event: string, error: unknown) =>
      logJson('error', { event, call: call.callId, tool: toolCall.name, error: (error as Error).message });
    if (result === undefined) {
      let outcome: Awaited<ReturnType<typeof runTool>>;
      try {
        outcome = await runTool(db, call, toolCall, now);
      } catch (error) {
        logToolError('voice_tool_failed', error);
        results.push({ toolCallId: toolCall.id, name: toolCall.name, error: TOOL_DOWN });
        continue;
      }
      deliveries.push(...outcome.deliveries);
      result = outcome.result;
      try {
        result = await recordToolCall(db, call, toolCall, outcome.result);
      } catch (error) {
        logToolError('voice_tool_line_lost', error);
      }
      answered.set(toolCall.id, result);
    }
    results.push({ toolCallId: toolCall.id, name: toolCall.name, result });
  }
  return { results, deliveries };
}

/** The tool call's line with its answer, once by its id; the answer stored first is returned. */
async function recordToolCall(db: Queryable, call: CallInfo, toolCall: ToolCallRequest, result: string) {
  const { rows } = await db.query<{ result: string }>(
    `WITH line AS (
       INSERT INTO voice_call_events (call_id, kind, name, tool_call_id, arguments, result)
       VALUES ($1, 'tool', $2, $3, $4::jsonb, $5)
       ON CONFLICT (call_id, tool_call_id) DO NOTHING RETURNING result)
     SELECT result FROM line
     UNION ALL SELECT result FROM voice_call_events WHERE call_id = $1 AND tool_call_id = $3
     LIMIT 1`,
    [
      call.callId,
      toolCall.name.slice(0, 64),
      toolCall.id,
      JSON.stringify(toolCall.arguments ?? {}),
      result.slice(0, 2000),
    ],
  );
  return rows[0]?.result ?? result;
}
