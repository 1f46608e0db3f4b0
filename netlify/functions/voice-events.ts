import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config, Context } from '@netlify/functions';
import { getConfig } from '../../src/server/config.ts';
import { withDatabase } from '../../src/server/db/database.ts';
import { DATABASE_DOWN } from '../../src/server/http/admin-handler.ts';
import { readJsonObject } from '../../src/server/http/body.ts';
import { logged } from '../../src/server/http/logging.ts';
import { json, jsonError, methodNotAllowed } from '../../src/server/http/responses.ts';
import { logJson } from '../../src/server/log.ts';
import { deliverSoon } from '../../src/server/notifications/soon.ts';
import { storeCall } from '../../src/server/voice/calls.ts';
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
 * URL"). Authenticated by VAPI_WEBHOOK_SECRET (401 otherwise). An
 * `end-of-call-report` is stored once per call id (200 {stored: true}, or
 * false for a replay); every other type is answered 200 and nothing is
 * stored (README lists them). Malformed bodies get a 4xx, never a 5xx.
 * Not same-origin: the platform's servers call it, the secret stands for the origin.
 */
export default logged('voice-events', async (request: Request, context?: Pick<Context, 'waitUntil'>) => {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  if (!authentic(request, getConfig().voiceWebhookSecret)) return jsonError(401, UNAUTHORIZED);
  const body = await readJsonObject(request, MAX_REPORT_BYTES);
  if (body instanceof Response) return body;
  const message = readServerMessage(body);
  if (message.kind === 'invalid') return jsonError(400, message.error);
  if (message.kind === 'ignored') return json(200, { received: message.type, stored: false });
  try {
    const stored = await withDatabase((db) => storeCall(db, message.report));
    logJson('info', {
      function: 'voice-events',
      event: stored.created ? 'call_stored' : 'call_replayed',
      call: message.report.callId,
      contact: stored.contactId,
    });
    if (stored.deliveries.length > 0) context?.waitUntil?.(deliverSoon(stored.deliveries));
    return json(200, { received: 'end-of-call-report', stored: stored.created, id: stored.id });
  } catch (error) {
    logJson('error', { function: 'voice-events', call: message.report.callId, error: (error as Error).message });
    // The platform may retry (its backoffPlan): nothing was stored, a retry stores it.
    return jsonError(503, DATABASE_DOWN);
  }
});

export const config: Config = { path: '/api/voice/events' };
