import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { endpoints } from '../../src/server/http/endpoint.ts';
import { DATABASE_DOWN, json, jsonError } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { deliverSoon } from '../../src/server/notifications/soon.ts';
import { answerToolCalls, recordStatus, TOOL_DOWN } from '../../src/server/voice/call-events.ts';
import { storeCall } from '../../src/server/voice/call-store.ts';
import { readServerMessage } from '../../src/server/voice/report.ts';

/** An end-of-call report carries the whole transcript and the assistant's configuration. */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;
const UNAUTHORIZED = 'Secreto de la plataforma de voz ausente o incorrecto.';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The secret the platform sends, as the assistant's credential sets it:
 * `X-Vapi-Secret: <secret>` (the legacy header, and a Bearer credential
 * renamed to it), or `Authorization: Bearer <secret>` (a Bearer credential's default).
 */
function sentSecret(request: Request): string | null {
  const header = request.headers.get('x-vapi-secret');
  if (header) return header.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '');
  return bearer?.[1]?.trim() ?? null;
}

/** Constant-time: the digests have one length whatever was sent. */
function authentic(request: Request, secret: string | undefined): boolean {
  const sent = sentSecret(request);
  if (!secret || !sent) return false;
  return timingSafeEqual(digest(sent), digest(secret));
}

/**
 * POST /api/voice/events: the voice platform's server messages (its "Server
 * URL"). Authenticated by VAPI_WEBHOOK_SECRET (401 otherwise). `tool-calls`
 * run the agent's tools during the call (src/server/voice/tools.ts) and
 * answer `{results: [{toolCallId, name, result}]}`, each id once;
 * `status-update` puts the call on record as it runs; an `end-of-call-report`
 * is stored once per call id (200 {stored: true}, or false for a replay);
 * every other type is answered 200 and nothing is stored. Malformed bodies
 * get a 4xx, never a 5xx.
 * Not same-origin: the platform's servers call it, the secret stands for the origin.
 */
export default endpoints(
  'voice-events',
  [
    {
      method: 'POST',
      path: '/api/voice/events',
      access: 'public',
      async work({ request, context, jsonObject, database }) {
        if (!authentic(request, getConfig().voiceWebhookSecret)) return jsonError(401, UNAUTHORIZED);
        const message = readServerMessage(await jsonObject(MAX_REPORT_BYTES));
        if (message.kind === 'invalid') return jsonError(400, message.error);
        if (message.kind === 'ignored') return json(200, { received: message.type, stored: false });
        if (message.kind === 'tools') {
          const { call, toolCalls } = message;
          try {
            const answers = await database((db) => answerToolCalls(db, call, toolCalls, Date.now()));
            if (answers.deliveries.length > 0) context.waitUntil?.(deliverSoon(answers.deliveries));
            logJson('info', {
              function: 'voice-events',
              event: 'tool_calls',
              call: call.callId,
              tools: toolCalls.map((toolCall) => toolCall.name).join(','),
            });
            return json(200, { results: answers.results });
          } catch (error) {
            logJson('error', { function: 'voice-events', call: call.callId, error: (error as Error).message });
            // The platform reads only a 200's results: the agent is told in words, and may try again.
            return json(200, {
              results: toolCalls.map((toolCall) => ({
                toolCallId: toolCall.id,
                name: toolCall.name,
                error: TOOL_DOWN,
              })),
            });
          }
        }
        if (message.kind === 'status') {
          try {
            await database((db) => recordStatus(db, message.call, message.status, message.endedReason));
            return json(200, { received: 'status-update', stored: true });
          } catch (error) {
            logJson('error', { function: 'voice-events', call: message.call.callId, error: (error as Error).message });
            return jsonError(503, DATABASE_DOWN);
          }
        }
        try {
          const stored = await database((db) => storeCall(db, message.report));
          logJson('info', {
            function: 'voice-events',
            event: stored.created ? 'call_stored' : 'call_replayed',
            call: message.report.callId,
            contact: stored.contactId,
          });
          if (stored.deliveries.length > 0) context.waitUntil?.(deliverSoon(stored.deliveries));
          return json(200, { received: 'end-of-call-report', stored: stored.created, id: stored.id });
        } catch (error) {
          logJson('error', { function: 'voice-events', call: message.report.callId, error: (error as Error).message });
          // The platform may retry (its backoffPlan): nothing was stored, a retry stores it.
          return jsonError(503, DATABASE_DOWN);
        }
      },
    },
  ],
  // The platform's servers call it: the secret stands for the origin.
  { sameOrigin: false },
);

export const config: Config = { path: '/api/voice/events' };
